import type { Comment, CommentReply, Space } from '@gitbook/api';
import { addOrganization, addUser, eventually, useTestApp } from '../support/app-harness';

type Envelope = { error: { code: number; message: string } };

describe('space comments over HTTP', () => {
  const current = useTestApp();

  const space = async () => {
    const app = current();
    return (await app.api().orgs.createSpace(app.organizationId, { title: 'Commented' })).data as Space;
  };
  const openComments = async (spaceId: string) =>
    (await current().api().spaces.getSpaceById(spaceId)).data.comments;
  const post = async (spaceId: string, markdown: string, token?: string) => {
    const reply = await current().api(token).spaces.postCommentInSpace(spaceId, { body: { markdown } });
    expect(reply.status).toBe(200);
    return reply.data as Comment;
  };
  /** Applies content changes to a space through a change request merged at once; answers the pages each made. */
  const change = async (spaceId: string, changes: Record<string, unknown>[]) => {
    const app = current();
    const cr = (await app.api().spaces.createChangeRequest(spaceId, { subject: 'Pages' })).data;
    const edit = await app.http(
      'POST',
      `/v1/spaces/${spaceId}/change-requests/${cr.id}/content?compat=false`,
      {
        body: { changes },
      },
    );
    expect(edit.status).toBe(200);
    await app.api().spaces.mergeChangeRequest(spaceId, cr.id);
    return (edit.body as { changes: { page: { id: string } }[] }).changes.map((c) => c.page?.id);
  };
  const withPage = async (title: string, markdown: string) => {
    const { id: spaceId } = await space();
    const [pageId] = await change(spaceId, [{ operation: 'insert_page', title, document: { markdown } }]);
    return { spaceId, pageId };
  };
  const member = (role: 'read' | 'comment' | 'edit' | 'admin') =>
    addUser(current(), { organizationId: current().organizationId, role });

  it('posts a comment in Markdown or as a document, gets it in either format, and counts it open', async () => {
    const app = current();
    const { id: spaceId, revision } = await space();
    const comment = await post(spaceId, 'Is this **right**?');
    expect(comment).toMatchObject({
      object: 'comment',
      status: 'open',
      postedBy: { id: app.userId },
      reactions: [],
      replies: 0,
      repliers: [],
      body: { markdown: 'Is this **right**?\n' },
      target: { space: spaceId, revision },
      permissions: { view: true, edit: true, reply: true, delete: true },
    });
    expect(comment.urls.location).toMatch(new RegExp(`/v1/spaces/${spaceId}/comments/${comment.id}$`));
    const asDocument = await app.api().spaces.getCommentInSpace(spaceId, comment.id, { format: 'document' });
    expect(asDocument.data.body).toMatchObject({ document: { object: 'document' } });
    const document = (asDocument.data.body as { document: unknown }).document;
    const second = await app.api().spaces.postCommentInSpace(spaceId, {
      body: { document } as never,
      tableCell: { record: 'r1', definition: 'd1' },
    });
    expect(second.data).toMatchObject({
      body: { markdown: 'Is this **right**?\n' },
      target: { tableCell: { record: 'r1', definition: 'd1' } },
    });
    expect((await app.api().spaces.getCommentInSpace(spaceId, comment.id)).data).toEqual(comment);
    expect(await openComments(spaceId)).toBe(2);
  });

  it('targets a page and a block of it: the page as it is now, outdated once its body changed or it is gone', async () => {
    const app = current();
    const { spaceId, pageId } = await withPage('Guide', 'First paragraph.\n\nSecond paragraph.\n');
    const page = await app.http('GET', `/v1/spaces/${spaceId}/content/page/${pageId}?format=document`);
    const blocks = (page.body as { document: { nodes: { key: string }[] } }).document.nodes;
    const comment = (
      await app.api().spaces.postCommentInSpace(spaceId, {
        body: { markdown: 'About this' },
        page: pageId,
        node: blocks[1].key,
      })
    ).data;
    expect(comment.target).toMatchObject({
      page: { id: pageId, title: 'Guide', path: 'guide', outdated: false },
      node: { id: blocks[1].key, preview: 'Second paragraph.' },
    });
    for (const [body, field] of [
      [{ body: { markdown: 'x' }, page: 'missingpage' }, /page/],
      [{ body: { markdown: 'x' }, page: pageId, node: 'missingnode' }, /node/],
      [{ body: { markdown: 'x' }, node: blocks[1].key }, /node/],
    ] as const) {
      const refused = await app.http('POST', `/v1/spaces/${spaceId}/comments`, { body });
      expect([refused.status, (refused.body as Envelope).error.message]).toEqual([
        400,
        expect.stringMatching(field),
      ]);
    }

    // Renamed: the title as it is now, not outdated; edited: outdated.
    await change(spaceId, [{ operation: 'update_page', page: pageId, title: 'Guide renamed' }]);
    const renamed = (await app.api().spaces.getCommentInSpace(spaceId, comment.id)).data;
    expect(renamed.target).toMatchObject({ page: { title: 'Guide renamed', outdated: false } });
    await change(spaceId, [
      { operation: 'update_page', page: pageId, document: { markdown: 'Rewritten.\n' } },
    ]);
    const edited = (await app.api().spaces.getCommentInSpace(spaceId, comment.id)).data;
    expect(edited.target).toMatchObject({ page: { title: 'Guide renamed', outdated: true } });

    // Deleted: still answered, outdated, as the page was when commented on.
    await change(spaceId, [{ operation: 'delete_page', page: pageId }]);
    const gone = (await app.api().spaces.getCommentInSpace(spaceId, comment.id)).data;
    expect(gone.target).toMatchObject({ page: { id: pageId, title: 'Guide', outdated: true } });
    expect((await app.api().spaces.listCommentsInSpace(spaceId, { targetPage: pageId })).data.count).toBe(1);
  });

  it('refuses a missing, empty, malformed or oversized body, naming it, and changes nothing', async () => {
    const app = current();
    const { id: spaceId } = await space();
    const cases: [unknown, number][] = [
      [{}, 400],
      [{ body: {} }, 400],
      [{ body: { markdown: 1 } }, 400],
      [{ body: { document: { object: 'nope' } } }, 400],
      [{ body: { markdown: 'x'.repeat(70 * 1024) } }, 400],
      [{ body: { markdown: 'ok' }, page: 'not a page id' }, 400],
    ];
    for (const [body, status] of cases) {
      const reply = await app.http('POST', `/v1/spaces/${spaceId}/comments`, { body });
      expect([reply.status, JSON.stringify(reply.body)]).toEqual([
        status,
        expect.stringMatching(/body|page/),
      ]);
    }
    expect((await app.api().spaces.listCommentsInSpace(spaceId)).data.count).toBe(0);
    expect(await openComments(spaceId)).toBe(0);
  });

  it('resolves and reopens, keeping the open count exact', async () => {
    const app = current();
    const { id: spaceId } = await space();
    const comment = await post(spaceId, 'Resolve me');
    const resolved = await app.api().spaces.updateCommentInSpace(spaceId, comment.id, { resolved: true });
    expect(resolved.data).toMatchObject({ status: 'resolved', resolvedBy: { id: app.userId } });
    expect(resolved.data).toHaveProperty('resolvedAt');
    expect(await openComments(spaceId)).toBe(0);
    // Resolving again changes nothing.
    await app.api().spaces.updateCommentInSpace(spaceId, comment.id, { resolved: true });
    expect(await openComments(spaceId)).toBe(0);
    const reopened = await app.api().spaces.updateCommentInSpace(spaceId, comment.id, { resolved: false });
    expect(reopened.data.status).toBe('open');
    expect(reopened.data).not.toHaveProperty('resolvedBy');
    expect(await openComments(spaceId)).toBe(1);
  });

  it('edits a body (editedAt) and aggregates reactions per emoji, one per user', async () => {
    const app = current();
    const { id: spaceId } = await space();
    const other = await member('comment');
    const comment = await post(spaceId, 'First');
    const edited = await app.api().spaces.updateCommentInSpace(spaceId, comment.id, {
      body: { markdown: 'Second' },
      addedReactions: ['👍'],
    });
    expect(edited.data).toMatchObject({ body: { markdown: 'Second\n' } });
    expect(edited.data).toHaveProperty('editedAt');
    await app
      .api(other.token)
      .spaces.updateCommentInSpace(spaceId, comment.id, { addedReactions: ['👍', '🎉'] });
    await app.api(other.token).spaces.updateCommentInSpace(spaceId, comment.id, { addedReactions: ['👍'] });
    const { data } = await app.api().spaces.getCommentInSpace(spaceId, comment.id);
    expect(data.reactions.map((r) => [r.emoji, r.count, r.users.map((u) => u.user.id)])).toEqual([
      ['👍', 2, [app.userId, other.userId]],
      ['🎉', 1, [other.userId]],
    ]);
    const removed = await app.api(other.token).spaces.updateCommentInSpace(spaceId, comment.id, {
      removedReactions: ['👍'],
    });
    expect(removed.data.reactions.map((r) => [r.emoji, r.count])).toEqual([
      ['👍', 1],
      ['🎉', 1],
    ]);
    const bad = await app.http('PUT', `/v1/spaces/${spaceId}/comments/${comment.id}`, {
      body: { addedReactions: ['smile'] },
    });
    expect(bad.status).toBe(400);
    expect((bad.body as Envelope).error.message).toMatch(/addedReactions/);
  });

  it('lists with status, order, authors, targetPage and pages', async () => {
    const app = current();
    const { spaceId, pageId } = await withPage('Listed', 'Text.\n');
    const other = await member('comment');
    const a = await post(spaceId, 'a');
    app.clock.advance(1000);
    const b = await post(spaceId, 'b', other.token);
    app.clock.advance(1000);
    const c = (await app.api().spaces.postCommentInSpace(spaceId, { body: { markdown: 'c' }, page: pageId }))
      .data;
    await app.api().spaces.updateCommentInSpace(spaceId, a.id, { resolved: true });
    const ids = async (query: Parameters<ReturnType<typeof app.api>['spaces']['listCommentsInSpace']>[1]) =>
      (await app.api().spaces.listCommentsInSpace(spaceId, query)).data.items.map((item) => item.id);
    expect(await ids({})).toEqual([c.id, b.id, a.id]);
    expect(await ids({ order: 'asc' })).toEqual([a.id, b.id, c.id]);
    expect(await ids({ status: 'open' })).toEqual([c.id, b.id]);
    expect(await ids({ status: 'resolved' })).toEqual([a.id]);
    expect(await ids({ authors: [other.userId] })).toEqual([b.id]);
    expect(await ids({ authors: [other.userId, app.userId], order: 'asc' })).toEqual([a.id, b.id, c.id]);
    expect(await ids({ targetPage: pageId })).toEqual([c.id]);
    const first = await app.api().spaces.listCommentsInSpace(spaceId, { limit: 2 });
    expect(first.data.count).toBe(3);
    const rest = await app
      .api()
      .spaces.listCommentsInSpace(spaceId, { limit: 2, page: first.data.next?.page });
    expect([...first.data.items, ...rest.data.items].map((item) => item.id)).toEqual([c.id, b.id, a.id]);
    const bad = await app.http('GET', `/v1/spaces/${spaceId}/comments?status=closed`);
    expect(bad.status).toBe(400);
  });

  it('replies: post, list, get, edit, react, delete; the comment counts them and their authors', async () => {
    const app = current();
    const { id: spaceId } = await space();
    const other = await member('comment');
    const comment = await post(spaceId, 'Thread');
    const reply = await app.api(other.token).spaces.postCommentReplyInSpace(spaceId, comment.id, {
      body: { markdown: 'Reply' },
    });
    expect(reply.status).toBe(200);
    expect(reply.data).toMatchObject({
      object: 'comment-reply',
      postedBy: { id: other.userId },
      body: { markdown: 'Reply\n' },
      reactions: [],
      permissions: { edit: true, delete: true },
    });
    const r = reply.data as CommentReply;
    expect((await app.api().spaces.getCommentReplyInSpace(spaceId, comment.id, r.id)).data).toMatchObject({
      id: r.id,
      permissions: { edit: true, delete: true },
    });
    const listed = await app.api().spaces.listCommentRepliesInSpace(spaceId, comment.id);
    expect(listed.data.items.map((item) => item.id)).toEqual([r.id]);
    const parent = (await app.api().spaces.getCommentInSpace(spaceId, comment.id)).data;
    expect(parent).toMatchObject({ replies: 1, repliers: [{ user: { id: other.userId }, count: 1 }] });
    const edited = await app.api(other.token).spaces.updateCommentReplyInSpace(spaceId, comment.id, r.id, {
      body: { markdown: 'Edited' },
      addedReactions: ['👀'],
    });
    expect(edited.data).toMatchObject({
      body: { markdown: 'Edited\n' },
      reactions: [{ emoji: '👀', count: 1 }],
    });
    expect(edited.data).toHaveProperty('editedAt');
    const refused = await app.http('PUT', `/v1/spaces/${spaceId}/comments/${comment.id}/replies/${r.id}`, {
      body: { body: { markdown: 'Not mine' } },
    });
    expect(refused.status).toBe(200); // the space's admin may edit any reply
    const deleted = await app.api(other.token).spaces.deleteCommentReplyInSpace(spaceId, comment.id, r.id);
    expect(deleted.status).toBe(205);
    expect(
      (await app.http('GET', `/v1/spaces/${spaceId}/comments/${comment.id}/replies/${r.id}`)).status,
    ).toBe(404);
    expect((await app.api().spaces.getCommentInSpace(spaceId, comment.id)).data).toMatchObject({
      replies: 0,
      repliers: [],
    });
  });

  it('deletes a comment with its replies (205), the open count following', async () => {
    const app = current();
    const { id: spaceId } = await space();
    const open = await post(spaceId, 'Open');
    const resolved = await post(spaceId, 'Resolved');
    await app.api().spaces.postCommentReplyInSpace(spaceId, open.id, { body: { markdown: 'r' } });
    await app.api().spaces.updateCommentInSpace(spaceId, resolved.id, { resolved: true });
    expect(await openComments(spaceId)).toBe(1);
    expect((await app.api().spaces.deleteCommentInSpace(spaceId, resolved.id)).status).toBe(205);
    expect(await openComments(spaceId)).toBe(1);
    expect((await app.api().spaces.deleteCommentInSpace(spaceId, open.id)).status).toBe(205);
    expect(await openComments(spaceId)).toBe(0);
    expect((await app.http('GET', `/v1/spaces/${spaceId}/comments/${open.id}`)).status).toBe(404);
    expect((await app.http('GET', `/v1/spaces/${spaceId}/comments/${open.id}/replies`)).status).toBe(404);
    expect((await app.http('DELETE', `/v1/spaces/${spaceId}/comments/${open.id}`)).status).toBe(404);
  });

  it('keeps mentions in the body and lists them on the audit entry; every change is an audited action', async () => {
    const app = current();
    const org = app.organizationId;
    const { id: spaceId } = await space();
    const mentioned = await member('read');
    const document = {
      object: 'document',
      data: {},
      nodes: [
        {
          object: 'block',
          type: 'paragraph',
          data: {},
          nodes: [
            { object: 'text', leaves: [{ object: 'leaf', text: 'Ask ', marks: [] }] },
            {
              object: 'inline',
              type: 'mention',
              isVoid: true,
              data: { ref: { kind: 'user', user: mentioned.userId } },
            },
          ],
        },
      ],
    };
    const comment = (await app.api().spaces.postCommentInSpace(spaceId, { body: { document } as never }))
      .data;
    const kept = await app.api().spaces.getCommentInSpace(spaceId, comment.id, { format: 'document' });
    expect(JSON.stringify(kept.data.body)).toContain(mentioned.userId);
    const reply = (
      await app.api().spaces.postCommentReplyInSpace(spaceId, comment.id, { body: { markdown: 'ok' } })
    ).data;
    await app
      .api()
      .spaces.updateCommentInSpace(spaceId, comment.id, { resolved: true, addedReactions: ['👍'] });
    await app.api().spaces.deleteCommentReplyInSpace(spaceId, comment.id, reply.id);
    await app.api().spaces.deleteCommentInSpace(spaceId, comment.id);
    const { data } = await app.api().orgs.listOrganizationAuditEvents(org, { target: comment.id } as never);
    expect(data.items.map((e) => e.action).reverse()).toEqual([
      'comment.created',
      'comment.reply_created',
      'comment.reaction_added',
      'comment.resolved',
      'comment.reply_deleted',
      'comment.deleted',
    ]);
    const created = data.items.find((e) => e.action === 'comment.created');
    const details = await app.api().orgs.getOrganizationAuditEvent(org, created?.id ?? '');
    expect(details.data).toMatchObject({ target: { type: 'comment', id: comment.id } });
    expect((details.data as unknown as { payload: { mentions: string[] } }).payload.mentions).toEqual([
      mentioned.userId,
    ]);
  });

  it('keeps comments and their count with a space transferred to another organization, audited there', async () => {
    const app = current();
    const { id: spaceId } = await space();
    const comment = await post(spaceId, 'Before');
    await post(spaceId, 'Also before');
    const destination = await addOrganization(app, 'Destination');
    const moved = await app.http('POST', `/v1/spaces/${spaceId}/transfer`, {
      body: { organization: destination },
    });
    expect(moved.status).toBe(200);
    expect(await openComments(spaceId)).toBe(2);
    await app.api().spaces.updateCommentInSpace(spaceId, comment.id, { resolved: true });
    expect(await openComments(spaceId)).toBe(1);
    expect((await app.api().spaces.getCommentInSpace(spaceId, comment.id)).data.status).toBe('resolved');
    const audited = async (org: string) =>
      (await app.api().orgs.listOrganizationAuditEvents(org, { target: comment.id } as never)).data.items.map(
        (e) => e.action,
      );
    expect(await audited(app.organizationId)).toEqual(['comment.created']);
    expect(await audited(destination)).toEqual(['comment.resolved']);
  });

  it('per role: read reads only, comment comments and changes its own, admin changes any, outsiders see nothing', async () => {
    const app = current();
    const { id: spaceId } = await space();
    const reader = await member('read');
    const commenter = await member('comment');
    const editor = await member('edit');
    const outsider = await addUser(app, { organizationId: await addOrganization(app), role: 'admin' });
    const mine = await post(spaceId, 'By the admin');
    const path = `/v1/spaces/${spaceId}/comments`;
    const body = { body: { markdown: 'x' } };

    // read: lists and gets, with nothing to change; may not comment, reply or react.
    const seen = (await app.api(reader.token).spaces.getCommentInSpace(spaceId, mine.id)).data;
    expect(seen.permissions).toEqual({ view: true, edit: false, reply: false, delete: false });
    expect((await app.http('POST', path, { token: reader.token, body })).status).toBe(403);
    expect((await app.http('POST', `${path}/${mine.id}/replies`, { token: reader.token, body })).status).toBe(
      403,
    );
    expect(
      (await app.http('PUT', `${path}/${mine.id}`, { token: reader.token, body: { resolved: true } })).status,
    ).toBe(403);

    // comment: comments, replies and resolves; edits and deletes only its own.
    const own = await post(spaceId, 'Mine', commenter.token);
    expect(own.permissions).toEqual({ view: true, edit: true, reply: true, delete: true });
    expect(
      (await app.api(commenter.token).spaces.getCommentInSpace(spaceId, mine.id)).data.permissions,
    ).toEqual({
      view: true,
      edit: false,
      reply: true,
      delete: false,
    });
    const resolve = await app.http('PUT', `${path}/${mine.id}`, {
      token: commenter.token,
      body: { resolved: true },
    });
    expect(resolve.status).toBe(200);
    const edit = await app.http('PUT', `${path}/${mine.id}`, { token: commenter.token, body });
    expect(edit.status).toBe(403);
    expect((await app.http('DELETE', `${path}/${mine.id}`, { token: commenter.token })).status).toBe(403);
    expect((await app.http('DELETE', `${path}/${mine.id}`, { token: editor.token })).status).toBe(403);
    expect((await app.http('PUT', `${path}/${own.id}`, { token: commenter.token, body })).status).toBe(200);

    // Outsiders get 404 for everything.
    for (const [method, at] of [
      ['GET', path],
      ['GET', `${path}/${mine.id}`],
      ['POST', path],
      ['DELETE', `${path}/${mine.id}`],
    ] as const) {
      expect(
        (await app.http(method, at, { token: outsider.token, body: method === 'POST' ? body : undefined }))
          .status,
      ).toBe(404);
    }

    // admin: deletes anyone's; the author deletes their own.
    expect((await app.http('DELETE', `${path}/${own.id}`, { token: commenter.token })).status).toBe(205);
    expect((await app.api().spaces.deleteCommentInSpace(spaceId, mine.id)).status).toBe(205);
    expect(await openComments(spaceId)).toBe(0);
  });
});

describe('change request comments and commenters over HTTP', () => {
  const current = useTestApp();

  const setup = async () => {
    const app = current();
    const space = (await app.api().orgs.createSpace(app.organizationId, { title: 'Reviewed' })).data as Space;
    const cr = (await app.api().spaces.createChangeRequest(space.id, { subject: 'Edit' })).data;
    return { space: space.id, cr };
  };
  const counts = async (space: string, cr: string) => {
    const { spaces } = current().api();
    return [
      (await spaces.getSpaceById(space)).data.comments,
      (await spaces.getChangeRequestById(space, cr)).data.comments,
    ];
  };

  it('comments, replies, reacts, resolves and deletes in a change request, by id or number, counting apart from the space', async () => {
    const app = current();
    const { spaces } = app.api();
    const { space, cr } = await setup();
    const comment = (
      await spaces.postCommentInChangeRequest(space, cr.id, { body: { markdown: 'In the CR' } })
    ).data;
    expect(comment).toMatchObject({
      object: 'comment',
      status: 'open',
      target: { space, changeRequest: cr.id, revision: cr.revision },
    });
    expect(comment.urls.location).toMatch(
      new RegExp(`/spaces/${space}/change-requests/${cr.id}/comments/${comment.id}$`),
    );
    expect(await counts(space, cr.id)).toEqual([0, 1]);
    // Not a comment of the space, nor of another change request.
    expect((await app.http('GET', `/v1/spaces/${space}/comments/${comment.id}`)).status).toBe(404);
    const other = (await spaces.createChangeRequest(space, { subject: 'Other' })).data;
    expect(
      (await app.http('GET', `/v1/spaces/${space}/change-requests/${other.id}/comments/${comment.id}`))
        .status,
    ).toBe(404);
    expect((await spaces.listCommentsInSpace(space)).data.count).toBe(0);

    const byNumber = String(cr.number);
    expect((await spaces.getCommentInChangeRequest(space, byNumber, comment.id)).data.id).toBe(comment.id);
    expect(
      (await spaces.listCommentsInChangeRequest(space, cr.id, { status: 'open' })).data.items,
    ).toHaveLength(1);

    const reply = (
      await spaces.postCommentReplyInChangeRequest(space, cr.id, comment.id, { body: { markdown: 'Reply' } })
    ).data;
    expect(
      (await spaces.listCommentRepliesInChangeRequest(space, cr.id, comment.id)).data.items.map((r) => r.id),
    ).toEqual([reply.id]);
    const edited = await spaces.updateCommentReplyInChangeRequest(space, cr.id, comment.id, reply.id, {
      body: { markdown: 'Edited' },
      addedReactions: ['👍'],
    });
    expect(edited.data).toMatchObject({
      body: { markdown: 'Edited\n' },
      reactions: [{ emoji: '👍', count: 1 }],
    });
    expect((await spaces.getCommentReplyInChangeRequest(space, cr.id, comment.id, reply.id)).data.id).toBe(
      reply.id,
    );
    // A reply has no status to resolve (GitBook's document gives its update the comment's body).
    const resolveReply = await app.http(
      'PUT',
      `/v1/spaces/${space}/change-requests/${cr.id}/comments/${comment.id}/replies/${reply.id}`,
      { body: { resolved: true } },
    );
    expect(resolveReply.status).toBe(400);
    expect((resolveReply.body as Envelope).error.message).toMatch(/resolved/);

    const resolved = await spaces.updateCommentInChangeRequest(space, cr.id, comment.id, { resolved: true });
    expect(resolved.data.status).toBe('resolved');
    expect(await counts(space, cr.id)).toEqual([0, 0]);
    await spaces.updateCommentInChangeRequest(space, cr.id, comment.id, { resolved: false });
    expect(await counts(space, cr.id)).toEqual([0, 1]);

    expect((await spaces.deleteCommentReplyInChangeRequest(space, cr.id, comment.id, reply.id)).status).toBe(
      205,
    );
    expect((await spaces.deleteCommentInChangeRequest(space, cr.id, comment.id)).status).toBe(205);
    expect(await counts(space, cr.id)).toEqual([0, 0]);
  });

  it("makes a review's comment one of its change request's, with target.review, replied to and counted", async () => {
    const app = current();
    const { space, cr } = await setup();
    const reviewer = await addUser(app, { organizationId: app.organizationId, role: 'review' });
    const review = await app.api(reviewer.token).spaces.submitChangeRequestReview(space, cr.id, {
      status: 'changes-requested' as never,
      comment: { markdown: 'Please fix **the intro**.' },
    });
    expect(review.status).toBe(201);
    const commentId = review.data.comment?.id ?? '';
    const path = `/v1/spaces/${space}/change-requests/${cr.id}/comments/${commentId}`;
    // The comment is posted by a job the review starts; its view and the change request's count are
    // projected apart, so wait for both.
    await eventually(async () => (await app.http('GET', path)).status === 200);
    await eventually(async () => (await counts(space, cr.id))[1] === 1);
    const { data } = await app.api().spaces.getCommentInChangeRequest(space, cr.id, commentId);
    expect(data).toMatchObject({
      postedBy: { id: reviewer.userId },
      body: { markdown: 'Please fix **the intro**.\n' },
      target: { space, changeRequest: cr.id, review: review.data.id },
      status: 'open',
    });
    expect(await counts(space, cr.id)).toEqual([0, 1]);
    await app
      .api()
      .spaces.postCommentReplyInChangeRequest(space, cr.id, commentId, { body: { markdown: 'Fixed' } });
    await app.api().spaces.updateCommentInChangeRequest(space, cr.id, commentId, { resolved: true });
    expect(await counts(space, cr.id)).toEqual([0, 0]);
    expect((await app.api().spaces.getCommentInChangeRequest(space, cr.id, commentId)).data.replies).toBe(1);
  });

  it('keeps the change request count through a merge', async () => {
    const app = current();
    const { spaces } = app.api();
    const { space, cr } = await setup();
    await spaces.postCommentInChangeRequest(space, cr.id, { body: { markdown: 'One' } });
    await spaces.postCommentInChangeRequest(space, cr.id, { body: { markdown: 'Two' } });
    await spaces.postCommentInSpace(space, { body: { markdown: 'On the space' } });
    expect((await spaces.mergeChangeRequest(space, cr.id)).data.result).toBe('merge');
    expect(await counts(space, cr.id)).toEqual([1, 2]);
  });

  it('lists who commented or replied, each once, in the order they first did, paged', async () => {
    const app = current();
    const { spaces } = app.api();
    const { space, cr } = await setup();
    const a = await addUser(app, { organizationId: app.organizationId, role: 'comment' });
    const b = await addUser(app, { organizationId: app.organizationId, role: 'comment' });
    const first = (await app.api(a.token).spaces.postCommentInSpace(space, { body: { markdown: '1' } })).data;
    app.clock.advance(1000);
    await spaces.postCommentReplyInSpace(space, first.id, { body: { markdown: '2' } });
    app.clock.advance(1000);
    await app.api(a.token).spaces.postCommentInSpace(space, { body: { markdown: '3' } });
    await app.api(b.token).spaces.postCommentInChangeRequest(space, cr.id, { body: { markdown: 'cr' } });

    const inSpace = await spaces.listCommentersInSpace(space);
    expect(inSpace.data.count).toBe(2);
    expect(inSpace.data.items.map((m) => m.user.id)).toEqual([a.userId, app.userId]);
    expect(inSpace.data.items[0]).toMatchObject({ object: 'member', role: 'comment' });
    const paged = await spaces.listCommentersInSpace(space, { limit: 1 });
    expect(paged.data.items.map((m) => m.user.id)).toEqual([a.userId]);
    const next = await spaces.listCommentersInSpace(space, { limit: 1, page: paged.data.next?.page });
    expect(next.data.items.map((m) => m.user.id)).toEqual([app.userId]);

    const inCr = await spaces.listCommentersInChangeRequest(space, cr.id);
    expect(inCr.data.items.map((m) => m.user.id)).toEqual([b.userId]);
  });
});
