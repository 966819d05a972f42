import { LIVE_PROJECTOR, type LiveProjector } from '@app/platform/projector/projector';
import { ChangeRequestStatus, type RevisionPageDocument, type Space } from '@gitbook/api';
import { addOrganization, addUser, eventually, useTestApp } from '../support/app-harness';
import { changeRequestSetup, insertPage, messageOf } from '../support/change-request-setup';

describe('change requests and content over HTTP', () => {
  const current = useTestApp();
  const { newSpace, newChangeRequest, edit } = changeRequestSetup(current);
  const spaceOf = async (id: string) => (await current().api().spaces.getSpaceById(id)).data;

  it('creates numbered change requests from the space revision, and keeps the space counters exact', async () => {
    const app = current();
    const space = await newSpace();
    const first = await newChangeRequest(space.id, 'First');
    const second = await newChangeRequest(space.id, 'Second');
    expect(first).toMatchObject({
      object: 'change-request',
      number: 1,
      status: 'open',
      subject: 'First',
      space: space.id,
      revision: space.revision,
      revisionInitial: space.revision,
      outdated: false,
      comments: 0,
    });
    expect(second.number).toBe(2);
    expect(await spaceOf(space.id)).toMatchObject({
      changeRequests: 2,
      changeRequestsOpen: 2,
      changeRequestsDraft: 0,
    });

    const byNumber = await app.api().spaces.getChangeRequestById(space.id, '2');
    expect(byNumber.data.id).toBe(second.id);
    const drafted = await app.api().spaces.updateChangeRequestById(space.id, second.id, {
      status: ChangeRequestStatus.Draft,
      subject: 'Later',
    });
    expect(drafted.data).toMatchObject({ status: ChangeRequestStatus.Draft, subject: 'Later' });
    expect(await spaceOf(space.id)).toMatchObject({
      changeRequests: 2,
      changeRequestsOpen: 1,
      changeRequestsDraft: 1,
    });

    const open = await app.api().spaces.listChangeRequestsForSpace(space.id);
    expect(open.data.items.map((c) => c.id)).toEqual([first.id]);
    const drafts = await app
      .api()
      .spaces.listChangeRequestsForSpace(space.id, { status: ChangeRequestStatus.Draft });
    expect(drafts.data.items.map((c) => c.id)).toEqual([second.id]);
    const inOrg = await app.api().orgs.listChangeRequestsForOrganization(app.organizationId, {
      status: [ChangeRequestStatus.Draft],
    });
    expect(inOrg.data.items.map((c) => c.id)).toEqual([second.id]);
    // GitBook's client sends a list as its key repeated (`status=open&status=draft`); each value is checked.
    const both = await app.api().orgs.listChangeRequestsForOrganization(app.organizationId, {
      status: [ChangeRequestStatus.Open, ChangeRequestStatus.Draft],
      space: space.id,
    });
    expect(both.data.items.map((c) => c.id).sort()).toEqual([first.id, second.id].sort());
    expect(both.data.count).toBe(2);
    const orgList = `/v1/orgs/${app.organizationId}/change-requests`;
    for (const query of ['status=open&status=closed', 'status=', `space=${space.id}&space=${space.id}`]) {
      const refused = await app.http('GET', `${orgList}?${query}`);
      expect({ query, status: refused.status }).toEqual({ query, status: 400 });
      const named = query.split('=')[0];
      expect(messageOf(refused.body)).toContain(named);
    }
    // The space's list takes one status, as GitBook's does: a repeated key stays a 400.
    const twice = await app.http('GET', `/v1/spaces/${space.id}/change-requests?status=open&status=draft`);
    expect(twice.status).toBe(400);

    const merged = await app.http('PATCH', `/v1/spaces/${space.id}/change-requests/${first.id}`, {
      body: { status: 'merged' },
    });
    expect(merged.status).toBe(400);
    const missing = await app.http('GET', `/v1/spaces/${space.id}/change-requests/99`);
    expect(missing.status).toBe(404);
  });

  it('writes Markdown pages into a change request, leaves the space alone until the merge, then moves it', async () => {
    const app = current();
    const space = await newSpace();
    const cr = await newChangeRequest(space.id);
    const written = await edit(space.id, cr.id, [
      insertPage('Getting started', '# Getting started\n\nHello **world**.\n', { slug: 'start' }),
      insertPage('Guides', 'Read these.\n'),
    ]);
    expect(written.changes.map((c) => c.object)).toEqual(['created_page', 'created_page']);
    const [start, guides] = written.changes.map((c) => c.page.id);
    await edit(space.id, cr.id, [insertPage('Intro', 'Intro body.\n', { into: guides, slug: 'intro' })]);

    const inCr = await app
      .api()
      .spaces.getPageInChangeRequestById(space.id, cr.id, start, { format: 'markdown' });
    expect(inCr.data).toMatchObject({ id: start, title: 'Getting started', slug: 'start', path: 'start' });
    expect((inCr.data as { markdown: string }).markdown).toContain('Hello **world**.');
    const nested = await app
      .api()
      .spaces.getPageInChangeRequestByPath(space.id, cr.id, encodeURIComponent('guides/intro'));
    expect(nested.data).toMatchObject({ title: 'Intro', path: 'guides/intro' });

    expect((await app.api().spaces.listPages(space.id)).data.pages).toEqual([]);
    const merge = await app.api().spaces.mergeChangeRequest(space.id, cr.id);
    expect(merge.data.result).toBe('merge');
    const after = await spaceOf(space.id);
    expect(after.revision).toBe(merge.data.revision);
    expect(after).toMatchObject({ changeRequestsOpen: 0, changeRequests: 1 });

    const pages = (await app.api().spaces.listPages(space.id)).data.pages as RevisionPageDocument[];
    expect(pages.map((p) => p.title)).toEqual(['Getting started', 'Guides']);
    expect(pages[1].pages.map((p) => p.title)).toEqual(['Intro']);
    const byPath = await app
      .api()
      .spaces.getPageByPath(space.id, encodeURIComponent('guides/intro'), { format: 'document' });
    expect(byPath.data).toMatchObject({ title: 'Intro' });
    const revision = await app.api().spaces.getRevisionById(space.id, merge.data.revision);
    expect(revision.data).toMatchObject({
      id: merge.data.revision,
      type: 'merge',
      parents: [space.revision, expect.any(String)],
    });
    const changes = await app.api().spaces.getRevisionSemanticChanges(space.id, merge.data.revision);
    expect(changes.data.changes.filter((c) => c.type === 'page_created')).toHaveLength(3);
    const doc = await app.api().spaces.getPageDocumentInRevisionById(space.id, merge.data.revision, start);
    expect(doc.data).toMatchObject({ object: 'document' });

    const mergedCr = await app.api().spaces.getChangeRequestById(space.id, cr.id);
    expect(mergedCr.data).toMatchObject({
      status: 'merged',
      revisionMerged: merge.data.revision,
      outdated: false,
    });
    const again = await app.http('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
      body: { changes: [insertPage('Late', 'x\n')] },
    });
    expect(again.status).toBe(409);
    // Old revisions stay readable: the space's first one is still empty.
    expect((await app.api().spaces.listPagesInRevisionById(space.id, space.revision)).data.pages).toEqual([]);
  });

  it('reads nested pages by their path as GitBook sends it (unencoded), encoded too; a bad path is a 400', async () => {
    const app = current();
    const space = await newSpace();
    const cr = await newChangeRequest(space.id);
    const pageIn = async (into: string | undefined, title: string, slug: string) =>
      (
        await edit(space.id, cr.id, [
          insertPage(title, `${title} body.\n`, { slug, ...(into ? { into } : {}) }),
        ])
      ).changes[0].page.id;
    const guides = await pageIn(undefined, 'Guides', 'guides');
    const intro = await pageIn(guides, 'Intro', 'intro');
    const first = await pageIn(intro, 'First steps', 'première');
    const deepest = 'guides/intro/première';

    // The client puts the path in the URL as it is: `/content/path/guides/intro`.
    const spaces = app.api().spaces;
    const inCr = await spaces.getPageInChangeRequestByPath(space.id, cr.id, 'guides/intro');
    expect(inCr.data).toMatchObject({ id: intro, title: 'Intro', path: 'guides/intro' });
    const deepInCr = await spaces.getPageInChangeRequestByPath(space.id, cr.id, deepest, {
      format: 'markdown',
    });
    expect(deepInCr.data).toMatchObject({ id: first, path: deepest });
    expect((deepInCr.data as { markdown: string }).markdown).toContain('First steps body.');
    const merge = await spaces.mergeChangeRequest(space.id, cr.id);
    expect(merge.data.result).toBe('merge');
    const inSpace = await spaces.getPageByPath(space.id, deepest, { format: 'markdown', metadata: true });
    expect(inSpace.data).toMatchObject({ id: first, path: deepest });
    expect((inSpace.data as { markdown: string }).markdown).toContain('First steps body.');
    const inRevision = await spaces.getPageInRevisionByPath(space.id, merge.data.revision, 'guides/intro');
    expect(inRevision.data).toMatchObject({ id: intro, path: 'guides/intro' });

    // Encoded whole, in part, or with a trailing slash: the same page; the query is still the query.
    const routes = [
      `/v1/spaces/${space.id}/content/path`,
      `/v1/spaces/${space.id}/change-requests/${cr.id}/content/path`,
      `/v1/spaces/${space.id}/revisions/${merge.data.revision}/path`,
    ];
    for (const route of routes) {
      for (const sent of [encodeURIComponent(deepest), `guides%2Fintro/${encodeURIComponent('première')}`]) {
        const reply = await app.http('GET', `${route}/${sent}?format=markdown`);
        expect({ sent, status: reply.status, id: (reply.body as { id: string }).id }).toEqual({
          sent,
          status: 200,
          id: first,
        });
        expect((reply.body as { markdown: string }).markdown).toContain('First steps body.');
      }
      expect((await app.http('GET', `${route}/guides/intro/`)).body).toMatchObject({ id: intro });
      expect((await app.http('GET', `${route}/guides/nowhere`)).status).toBe(404);
      // The router puts no limit of its own on the path: 2048 characters are looked up, one more is refused.
      expect((await app.http('GET', `${route}/${'a/'.repeat(1023)}aa`)).status).toBe(404);
      for (const bad of ['', 'guides/in%01tro', '%00/intro', `${'a/'.repeat(1024)}a`]) {
        const reply = await app.http('GET', `${route}/${bad}`);
        expect({ bad, status: reply.status }).toEqual({ bad, status: 400 });
        expect(messageOf(reply.body)).toMatch(/^pagePath: /);
      }
    }
  });

  it('merges two change requests that edited different blocks of one page; both edits survive', async () => {
    const app = current();
    const space = await newSpace();
    const setup = await newChangeRequest(space.id);
    const [page] = (
      await edit(space.id, setup.id, [insertPage('Page', 'First paragraph.\n\nSecond paragraph.\n')])
    ).changes.map((c) => c.page.id);
    await app.api().spaces.mergeChangeRequest(space.id, setup.id);

    const a = await newChangeRequest(space.id, 'A');
    const b = await newChangeRequest(space.id, 'B');
    await edit(space.id, a.id, [
      {
        operation: 'update_page',
        page,
        document: { markdown: 'First, edited by A.\n\nSecond paragraph.\n' },
      },
    ]);
    await edit(space.id, b.id, [
      {
        operation: 'update_page',
        page,
        document: { markdown: 'First paragraph.\n\nSecond, edited by B.\n' },
      },
    ]);
    expect((await app.api().spaces.mergeChangeRequest(space.id, a.id)).data.result).toBe('merge');
    expect((await app.api().spaces.getChangeRequestById(space.id, b.id)).data.outdated).toBe(true);
    expect((await app.api().spaces.mergeChangeRequest(space.id, b.id)).data.result).toBe('merge');
    const merged = await app.api().spaces.getPageById(space.id, page, { format: 'markdown' });
    const markdown = (merged.data as { markdown: string }).markdown;
    expect(markdown).toContain('First, edited by A.');
    expect(markdown).toContain('Second, edited by B.');
  });

  it('merges two change requests that edited different copies of a repeated paragraph; both edits survive', async () => {
    const app = current();
    const space = await newSpace();
    const setup = await newChangeRequest(space.id);
    const repeated = 'Note: back up first.\n\nStep one.\n\nNote: back up first.\n\nStep two.\n';
    const [page] = (await edit(space.id, setup.id, [insertPage('Steps', repeated)])).changes.map(
      (c) => c.page.id,
    );
    await app.api().spaces.mergeChangeRequest(space.id, setup.id);
    const [a, b] = [await newChangeRequest(space.id, 'A'), await newChangeRequest(space.id, 'B')];
    const rewrite = (markdown: string) => [{ operation: 'update_page', page, document: { markdown } }];
    await edit(
      space.id,
      a.id,
      rewrite(repeated.replace('Note: back up first.', 'Note: back up everything.')),
    );
    const second = repeated.lastIndexOf('Note: back up first.');
    await edit(
      space.id,
      b.id,
      rewrite(`${repeated.slice(0, second)}Note: back up the database.${repeated.slice(second + 20)}`),
    );
    expect((await app.api().spaces.mergeChangeRequest(space.id, a.id)).data.result).toBe('merge');
    expect((await app.api().spaces.mergeChangeRequest(space.id, b.id)).data.result).toBe('merge');
    const merged = await app.api().spaces.getPageById(space.id, page, { format: 'markdown' });
    expect((merged.data as { markdown: string }).markdown).toBe(
      'Note: back up everything.\n\nStep one.\n\nNote: back up the database.\n\nStep two.\n',
    );
  });

  it('lands every edit and merge of change requests written at once on one space, and one of two that conflict', async () => {
    const app = current();
    const space = await newSpace();
    const setup = await newChangeRequest(space.id);
    const titles = ['A', 'B', 'C', 'D', 'E', 'F'];
    const pages = (
      await edit(
        space.id,
        setup.id,
        titles.map((t) => insertPage(t, `${t} before.\n`)),
      )
    ).changes.map((c) => c.page.id);
    await app.api().spaces.mergeChangeRequest(space.id, setup.id);

    // Each writer edits its own page then merges; their commands meet on the space's one stream, where
    // an edit's new objects are read by a merge decided with it before they are stored.
    const results = await Promise.all(
      titles.map(async (title, i) => {
        const cr = await newChangeRequest(space.id, title);
        await edit(space.id, cr.id, [
          { operation: 'update_page', page: pages[i], document: { markdown: `${title} after.\n` } },
        ]);
        return (await app.api().spaces.mergeChangeRequest(space.id, cr.id)).data.result;
      }),
    );
    expect(results).toEqual(titles.map(() => 'merge'));
    for (const [i, title] of titles.entries()) {
      const page = await app.api().spaces.getPageById(space.id, pages[i], { format: 'markdown' });
      expect((page.data as { markdown: string }).markdown).toBe(`${title} after.\n`);
    }
    expect(await spaceOf(space.id)).toMatchObject({ changeRequests: 7, changeRequestsOpen: 0 });

    const rivals = await Promise.all(['X', 'Y'].map((t) => newChangeRequest(space.id, t)));
    await Promise.all(
      rivals.map((cr, i) =>
        edit(space.id, cr.id, [
          { operation: 'update_page', page: pages[0], document: { markdown: `Rival ${i}.\n` } },
        ]),
      ),
    );
    const outcomes = await Promise.all(
      rivals.map(async (cr) => (await app.api().spaces.mergeChangeRequest(space.id, cr.id)).data.result),
    );
    expect([...outcomes].sort()).toEqual(['conflicts', 'merge']);
    const winner = outcomes.indexOf('merge');
    const page = await app.api().spaces.getPageById(space.id, pages[0], { format: 'markdown' });
    expect((page.data as { markdown: string }).markdown).toBe(`Rival ${winner}.\n`);
  });

  it('answers conflicts without changing the space, and updates a change request from the space', async () => {
    const app = current();
    const space = await newSpace();
    const setup = await newChangeRequest(space.id);
    const [page] = (await edit(space.id, setup.id, [insertPage('Page', 'Original.\n')])).changes.map(
      (c) => c.page.id,
    );
    await app.api().spaces.mergeChangeRequest(space.id, setup.id);
    const a = await newChangeRequest(space.id, 'A');
    const b = await newChangeRequest(space.id, 'B');
    const c = await newChangeRequest(space.id, 'C');
    await edit(space.id, a.id, [{ operation: 'update_page', page, document: { markdown: 'Version A.\n' } }]);
    await edit(space.id, b.id, [{ operation: 'update_page', page, document: { markdown: 'Version B.\n' } }]);
    await edit(space.id, c.id, [insertPage('Other', 'Unrelated.\n')]);
    await app.api().spaces.mergeChangeRequest(space.id, a.id);
    const before = await spaceOf(space.id);

    const conflict = await app.api().spaces.mergeChangeRequest(space.id, b.id);
    expect(conflict.status).toBe(200);
    expect(conflict.data.result).toBe('conflicts');
    expect(await spaceOf(space.id)).toMatchObject({ revision: before.revision });
    const stillOpen = await app.api().spaces.getChangeRequestById(space.id, b.id);
    expect(stillOpen.data.status).toBe('open');
    const changes = await app.api().spaces.getChangeRequestChanges(space.id, b.id);
    expect(changes.data.changes.some((ch) => ch.type === 'page_edited')).toBe(true);
    const rebaseConflict = await app.api().spaces.updateChangeRequest(space.id, b.id);
    expect(rebaseConflict.data.result).toBe('conflicts');

    const rebased = await app.api().spaces.updateChangeRequest(space.id, c.id);
    expect(rebased.data.result).toBe('update');
    const updated = await app.api().spaces.getChangeRequestById(space.id, c.id);
    expect(updated.data).toMatchObject({
      revisionMergedAncestor: before.revision,
      outdated: false,
      revision: rebased.data.revision,
    });
    const titles = (await app.api().spaces.listPagesInChangeRequest(space.id, c.id)).data.pages.map(
      (p) => p.title,
    );
    expect(titles.sort()).toEqual(['Other', 'Page']);
  });

  it('applies a batch atomically, and refuses a stale If-Match with 412 so no concurrent edit is lost', async () => {
    const app = current();
    const space = await newSpace();
    const cr = await newChangeRequest(space.id);
    const path = `/v1/spaces/${space.id}/change-requests/${cr.id}/content`;
    const bad = await app.http('POST', path, {
      body: { changes: [insertPage('Kept?', 'no\n'), { operation: 'delete_page', page: 'missing-page' }] },
    });
    expect(bad.status).toBe(404);
    expect((await app.api().spaces.listPagesInChangeRequest(space.id, cr.id)).data.pages).toEqual([]);
    const malformed = await app.http('POST', path, {
      body: {
        changes: [
          {
            operation: 'insert_page',
            title: 'Broken',
            document: { document: { object: 'document', data: {}, nodes: [{ object: 'text' }] } },
          },
        ],
      },
    });
    expect(malformed.status).toBe(400);
    expect(JSON.stringify(malformed.body)).toContain('changes[0].document.document.nodes[0].leaves');

    const seen = await app.http('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}`);
    const etag = seen.headers.get('etag') as string;
    const [first, second] = await Promise.all(
      ['One', 'Two'].map((title) =>
        app.http('POST', path, {
          body: { changes: [insertPage(title, `${title}\n`)] },
          headers: { 'if-match': etag },
        }),
      ),
    );
    expect([first.status, second.status].sort()).toEqual([200, 412]);
    const titles = (await app.api().spaces.listPagesInChangeRequest(space.id, cr.id)).data.pages.map(
      (p) => p.title,
    );
    expect(titles).toHaveLength(1);
    const retried = await app.http('POST', path, { body: { changes: [insertPage('Three', 'Three\n')] } });
    expect(retried.status).toBe(200);
    expect((await app.api().spaces.listPagesInChangeRequest(space.id, cr.id)).data.pages).toHaveLength(2);
  });

  it('records reviews and requested reviewers, and merges only as the space merge rules allow', async () => {
    const app = current();
    const reviewer = await addUser(app, { organizationId: app.organizationId, role: 'review' });
    const space = await newSpace();
    const cr = await newChangeRequest(space.id);
    await edit(space.id, cr.id, [insertPage('Page', 'Body.\n')]);

    const requested = await app
      .api()
      .spaces.requestReviewersForChangeRequest(space.id, cr.id, { users: [reviewer.userId] });
    expect(requested.data.users?.map((u) => (u as { user: { id: string } }).user.id)).toEqual([
      reviewer.userId,
    ]);
    const pending = await app.api().spaces.getRequestedReviewersByChangeRequestId(space.id, cr.id);
    expect(pending.data.items).toHaveLength(1);
    const outsider = await app.http(
      'POST',
      `/v1/spaces/${space.id}/change-requests/${cr.id}/requested-reviewers`,
      {
        body: { users: ['not-a-member-user'] },
      },
    );
    expect(outsider.status).toBe(400);
    const other = await addUser(app, { organizationId: app.organizationId, role: 'edit' });
    await app.api().spaces.requestReviewersForChangeRequest(space.id, cr.id, { users: [other.userId] });
    const removePath = `/v1/spaces/${space.id}/change-requests/${cr.id}/requested-reviewers/${other.userId}`;
    expect((await app.http('DELETE', removePath)).status).toBe(205);
    expect((await app.http('DELETE', removePath)).status).toBe(204);

    const rules = await app.api().spaces.updateSpaceById(space.id, {
      mergeRules: {
        type: 'rules',
        rules: [{ rule: 'require_specific_reviewers', users: [reviewer.userId] }],
      },
    } as never);
    expect(rules.data.mergeRules).toEqual({
      type: 'rules',
      rules: [{ rule: 'require_specific_reviewers', users: [reviewer.userId] }],
    });
    const blocked = await app.http('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`);
    expect(blocked.status).toBe(409);
    expect(JSON.stringify(blocked.body)).toContain(reviewer.userId);

    const asReviewer = app.api(reviewer.token);
    const first = await asReviewer.spaces.submitChangeRequestReview(space.id, cr.id, {
      status: 'changes-requested',
    } as never);
    expect(first.status).toBe(201);
    expect(first.data).toMatchObject({
      status: 'changes-requested',
      outdated: false,
      reviewer: { id: reviewer.userId },
    });
    expect((await app.http('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`)).status).toBe(
      409,
    );
    const approval = await asReviewer.spaces.submitChangeRequestReview(space.id, cr.id, {
      status: 'approved',
    } as never);
    expect(approval.data.requestedBy).toBeUndefined();
    const reviews = await app.api().spaces.getReviewsByChangeRequestId(space.id, cr.id);
    expect(reviews.data.items.map((r) => [r.status, r.outdated])).toEqual([
      ['approved', false],
      ['changes-requested', true],
    ]);
    expect(
      (await app.api().spaces.getChangeRequestReviewById(space.id, cr.id, approval.data.id)).data.id,
    ).toBe(approval.data.id);
    expect(
      (await app.api().spaces.getRequestedReviewersByChangeRequestId(space.id, cr.id)).data.items,
    ).toEqual([]);

    // A new edit makes the approval outdated for the rules.
    await edit(space.id, cr.id, [insertPage('Another', 'More.\n')]);
    expect((await app.http('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`)).status).toBe(
      409,
    );
    await asReviewer.spaces.submitChangeRequestReview(space.id, cr.id, { status: 'approved' } as never);
    expect((await app.api().spaces.mergeChangeRequest(space.id, cr.id)).data.result).toBe('merge');

    const removed = await app.http(
      'DELETE',
      `/v1/spaces/${space.id}/change-requests/${cr.id}/requested-reviewers/${reviewer.userId}`,
    );
    expect(removed.status).toBe(409);
    const badRules = await app.http('PATCH', `/v1/spaces/${space.id}`, {
      body: { mergeRules: { type: 'rules', rules: [{ rule: 'custom', expression: 'true' }] } },
    });
    expect(badRules.status).toBe(400);
  });

  it('lists across the organization only the change requests of spaces the caller can read, paged exactly', async () => {
    const app = current();
    const api = app.api();
    /** Spaces of `org` with change requests: `closed` of them closed to members, two open. */
    const organization = async (org: string, closed: number) => {
      const spaces: Space[] = [];
      for (const title of ['Hidden', 'Shown', 'Also shown', ...Array(closed - 1).fill('Closed')]) {
        spaces.push((await api.orgs.createSpace(org, { title })).data as Space);
      }
      const [hidden, shown, alsoShown, ...others] = spaces;
      for (const space of [hidden, ...others])
        await api.spaces.updateSpaceById(space.id, { defaultLevel: null });
      for (let i = 0; i < 3; i++) {
        await newChangeRequest(hidden.id, `Secret ${i}`);
        await newChangeRequest(shown.id, `Public ${i}`);
      }
      const drafted = await newChangeRequest(hidden.id, 'Secret draft');
      await api.spaces.updateChangeRequestById(hidden.id, drafted.id, { status: ChangeRequestStatus.Draft });
      await newChangeRequest(alsoShown.id, 'Public last');
      await newChangeRequest((others[0] ?? hidden).id, 'Secret last');
      const reader = await addUser(app, { organizationId: org, role: 'read' });
      expect((await app.http('GET', `/v1/spaces/${hidden.id}`, { token: reader.token })).status).toBe(404);
      return { hidden, shown, reader, closed: [hidden, ...others].map((space) => space.id) };
    };

    type Listed = { items: { id: string; space: string }[]; count: number; next?: { page: string } };
    /** Every page of the list, `limit` at a time, and the counts each page answered. */
    const walk = async (org: string, query: string, token?: string, limit = 1000) => {
      const ids: string[] = [];
      const counts = new Set<number>();
      let page: string | undefined;
      do {
        const reply = await app.http(
          'GET',
          `/v1/orgs/${org}/change-requests?limit=${limit}&${query}${page ? `&page=${page}` : ''}`,
          token ? { token } : {},
        );
        expect(reply.status).toBe(200);
        const body = reply.body as Listed;
        ids.push(...body.items.map((c) => `${c.space}/${c.id}`));
        counts.add(body.count);
        page = body.next?.page;
      } while (page);
      return { ids, counts: [...counts] };
    };
    // Fewer spaces hidden than readable (the list skips the hidden ones), then more (it reads the readable).
    const cases: [string, number][] = [
      [app.organizationId, 1],
      [await addOrganization(app, 'Mostly closed'), 4],
    ];
    for (const [org, closed] of cases) {
      const { hidden, shown, reader, closed: ids } = await organization(org, closed);
      for (const query of ['', 'status=open&status=draft', `creator=${app.userId}`]) {
        const all = (await walk(org, query)).ids;
        expect(all.some((id) => id.startsWith(`${hidden.id}/`))).toBe(true);
        const readable = all.filter((id) => !ids.includes(id.split('/')[0]));
        expect({ query, ...(await walk(org, query, reader.token, 2)) }).toEqual({
          query,
          ids: readable,
          counts: [readable.length],
        });
      }
      // Naming a space the caller cannot read answers nothing, as if it had no change requests.
      expect(await walk(org, `space=${hidden.id}`, reader.token)).toEqual({ ids: [], counts: [0] });
      expect((await walk(org, `space=${shown.id}`, reader.token)).ids).toHaveLength(3);
    }
  });
});

describe('a committed write while the views are behind', () => {
  const current = useTestApp({ config: { viewsWaitMs: 300 } });
  const { newSpace, newChangeRequest, edit } = changeRequestSetup(current);

  it('answers a merge 200 with its outcome, and a delete 204, though the views do not include them yet', async () => {
    const app = current();
    const space = await newSpace();
    const cr = await newChangeRequest(space.id);
    await edit(space.id, cr.id, [insertPage('Merged while stalled', 'Body')]);
    const team = (await app.api().orgs.createOrganizationTeam(app.organizationId, { title: 'Doomed' })).data;
    const projector = app.built.app.get<LiveProjector>(LIVE_PROJECTOR);
    await projector.stop();
    try {
      const merged = await app.http('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`);
      expect(merged.status).toBe(200);
      const { result, revision } = merged.body as { result: string; revision: string };
      expect(result).toBe('merge');
      // A write whose answer is read from the views can only say it was stored.
      const renamed = await app.http('PATCH', `/v1/spaces/${space.id}`, { body: { title: 'Renamed' } });
      expect(renamed.status).toBe(503);
      expect(JSON.stringify(renamed.body)).toMatch(/stored/);
      const before = (await app.api().spaces.getSpaceById(space.id)).data;
      expect(before.revision).not.toBe(revision);
      expect((await app.http('DELETE', `/v1/orgs/${app.organizationId}/teams/${team.id}`)).status).toBe(204);
      await projector.start();
      // Both writes stand: the views include them once the projector follows the log again.
      const current = async () => (await app.api().spaces.getSpaceById(space.id)).data;
      await eventually(async () => (await current()).revision === revision, 30_000);
      expect((await current()).title).toBe('Renamed');
    } finally {
      await projector.start().catch(() => undefined);
    }
  });
});
