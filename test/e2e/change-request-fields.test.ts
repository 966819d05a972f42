import { ChangeRequestStatus } from '@gitbook/api';
import { addUser, useTestApp } from '../support/app-harness';
import { changeRequestSetup, insertPage, messageOf } from '../support/change-request-setup';

describe('GitBook request fields of change requests, reviews and content reads', () => {
  const current = useTestApp();
  const { newSpace, newChangeRequest, edit } = changeRequestSetup(current);

  it('reads pages with dereferenced true, false and reusable-contents alike, and refuses other values', async () => {
    const app = current();
    const space = await newSpace();
    const cr = await newChangeRequest(space.id);
    const page = (await edit(space.id, cr.id, [insertPage('Intro', 'Hello.\n')])).changes[0].page.id;
    const revision = (await app.api().spaces.getChangeRequestById(space.id, cr.id)).data.revision;

    const reads = [
      (dereferenced: never) =>
        app.api().spaces.getPageInChangeRequestById(space.id, cr.id, page, { dereferenced }),
      (dereferenced: never) =>
        app.api().spaces.getPageInChangeRequestByPath(space.id, cr.id, 'intro', { dereferenced }),
      (dereferenced: never) =>
        app.api().spaces.getPageInRevisionById(space.id, revision, page, { dereferenced }),
      (dereferenced: never) =>
        app.api().spaces.getPageInRevisionByPath(space.id, revision, 'intro', { dereferenced }),
      (dereferenced: never) =>
        app.api().spaces.getPageDocumentInRevisionById(space.id, revision, page, { dereferenced }),
    ];
    for (const read of reads) {
      const answers = await Promise.all(
        [true, false, 'reusable-contents'].map(async (value) => (await read(value as never)).data),
      );
      expect(answers[1]).toEqual(answers[0]);
      expect(answers[2]).toEqual(answers[0]);
    }
    // The space's own reads take it too (the page is not merged: a 404, not a 400).
    for (const path of [`content/page/${page}`, 'content/path/intro']) {
      const reply = await app.http('GET', `/v1/spaces/${space.id}/${path}?dereferenced=reusable-contents`);
      expect({ path, status: reply.status }).toEqual({ path, status: 404 });
    }
    const refused = await app.http(
      'GET',
      `/v1/spaces/${space.id}/change-requests/${cr.id}/content/page/${page}?dereferenced=everything`,
    );
    expect(refused.status).toBe(400);
    expect(messageOf(refused.body)).toContain('dereferenced');
    // `cachedMetadata` is a parameter of the reads by path only, as in GitBook's.
    const byPath = await app.http(
      'GET',
      `/v1/spaces/${space.id}/change-requests/${cr.id}/content/path/intro?cachedMetadata=true`,
    );
    expect(byPath.status).toBe(200);
    const byId = await app.http(
      'GET',
      `/v1/spaces/${space.id}/change-requests/${cr.id}/content/page/${page}?cachedMetadata=true`,
    );
    expect(byId.status).toBe(400);
    expect(messageOf(byId.body)).toContain('cachedMetadata');
  });

  const paragraph = (text: string) => ({
    object: 'document' as const,
    data: {},
    nodes: [
      {
        object: 'block' as const,
        type: 'paragraph' as const,
        data: {},
        nodes: [{ object: 'text' as const, leaves: [{ object: 'leaf' as const, text, marks: [] }] }],
      },
    ],
  });

  it('updates a change request description and links, and answers them', async () => {
    const app = current();
    const space = await newSpace();
    const cr = await newChangeRequest(space.id);
    const described = await app.api().spaces.updateChangeRequestById(space.id, cr.id, {
      description: paragraph('Why this change.') as never,
      links: [{ ref: { kind: 'url', url: 'https://tickets.example.com/1' }, title: 'Ticket 1' }] as never,
    });
    expect(described.data.description?.nodes).toHaveLength(1);
    expect(described.data.links).toEqual([
      {
        id: expect.any(String),
        ref: { kind: 'url', url: 'https://tickets.example.com/1' },
        title: 'Ticket 1',
      },
    ]);
    const kept = described.data.links?.[0].id as string;
    const relinked = await app.api().spaces.updateChangeRequestById(space.id, cr.id, {
      links: [
        { id: kept, ref: { kind: 'url', url: 'https://tickets.example.com/1' }, title: 'Renamed' },
        { ref: { kind: 'url', url: 'https://tickets.example.com/2' } },
      ] as never,
    });
    expect(relinked.data.links?.map((l) => [l.id === kept, l.title])).toEqual([
      [true, 'Renamed'],
      [false, undefined],
    ]);
    const read = await app.api().spaces.getChangeRequestById(space.id, cr.id);
    expect(read.data.links).toEqual(relinked.data.links);
    expect(read.data.description).toEqual(described.data.description);

    const patch = (body: unknown) =>
      app.http('PATCH', `/v1/spaces/${space.id}/change-requests/${cr.id}`, { body });
    for (const [body, named] of [
      [{ description: { markdown: 'x' } }, 'description'],
      [{ description: 'x' }, 'description'],
      [{ links: [{ ref: { kind: 'url', url: 'javascript:alert(1)' } }] }, 'links.0.ref.url'],
      [{ links: [{ ref: { kind: 'page', url: 'https://example.com' } }] }, 'links.0.ref.kind'],
      [{ links: [{ id: 'nope', ref: { kind: 'url', url: 'https://example.com' } }] }, 'links[0].id'],
      [{ links: [{ ref: { kind: 'url', url: 'https://example.com' }, title: 'x'.repeat(129) }] }, 'title'],
      [
        { links: Array.from({ length: 11 }, () => ({ ref: { kind: 'url', url: 'https://e.com' } })) },
        'links',
      ],
    ] as const) {
      const reply = await patch(body);
      expect({ body, status: reply.status }).toEqual({ body, status: 400 });
      expect(messageOf(reply.body)).toContain(named);
    }
  });

  it('updates the subject and description given with a request for reviewers', async () => {
    const app = current();
    const space = await newSpace();
    const cr = await newChangeRequest(space.id);
    const reviewer = await addUser(app, { organizationId: app.organizationId, role: 'review' });
    const asked = await app.api().spaces.requestReviewersForChangeRequest(space.id, cr.id, {
      users: [reviewer.userId],
      subject: 'Ready for review',
      description: paragraph('Please look at the intro.') as never,
    });
    expect(asked.status).toBe(200);
    const read = (await app.api().spaces.getChangeRequestById(space.id, cr.id)).data;
    expect(read.subject).toBe('Ready for review');
    expect(read.description?.nodes).toHaveLength(1);
    const tooLong = await app.http(
      'POST',
      `/v1/spaces/${space.id}/change-requests/${cr.id}/requested-reviewers`,
      {
        body: { users: [reviewer.userId], subject: 'x'.repeat(101) },
      },
    );
    expect(tooLong.status).toBe(400);
    expect(messageOf(tooLong.body)).toContain('subject');
  });

  it('keeps the comment of a review, answered in the format asked', async () => {
    const app = current();
    const space = await newSpace();
    const cr = await newChangeRequest(space.id);
    const reviewer = await addUser(app, { organizationId: app.organizationId, role: 'review' });
    const asReviewer = app.api(reviewer.token);
    const submitted = await asReviewer.spaces.submitChangeRequestReview(space.id, cr.id, {
      status: 'changes-requested' as never,
      comment: { markdown: 'Please fix **the intro**.' },
    });
    expect(submitted.status).toBe(201);
    expect(submitted.data.comment).toMatchObject({
      object: 'comment',
      postedBy: { id: reviewer.userId },
      target: { space: space.id, changeRequest: cr.id, review: submitted.data.id },
      body: { document: { object: 'document' } },
    });
    const asMarkdown = await app
      .api()
      .spaces.getChangeRequestReviewById(space.id, cr.id, submitted.data.id, { format: 'markdown' as never });
    expect(asMarkdown.data.comment?.body).toEqual({ markdown: 'Please fix **the intro**.\n' });
    const listed = await app.http(
      'GET',
      `/v1/spaces/${space.id}/change-requests/${cr.id}/reviews?format=markdown`,
    );
    expect((listed.body as { items: { comment: unknown }[] }).items[0].comment).toMatchObject({
      body: { markdown: 'Please fix **the intro**.\n' },
    });
    const without = await asReviewer.spaces.submitChangeRequestReview(space.id, cr.id, {
      status: 'approved' as never,
      comment: {},
    });
    expect(without.data.comment).toBeUndefined();
    const reviews = `/v1/spaces/${space.id}/change-requests/${cr.id}/reviews`;
    for (const comment of ['x', { markdown: 1 }, { document: { object: 'nope' } }]) {
      const reply = await app.http('POST', reviews, {
        token: reviewer.token,
        body: { status: 'approved', comment },
      });
      expect({ comment, status: reply.status }).toEqual({ comment, status: 400 });
      expect(messageOf(reply.body)).toContain('comment');
    }
    const badFormat = await app.http('GET', `${reviews}/${submitted.data.id}?format=html`);
    expect(badFormat.status).toBe(400);
    expect(messageOf(badFormat.body)).toContain('format');
  });

  it('refuses the fields of features this service does not have, naming them', async () => {
    const app = current();
    const space = await newSpace();
    for (const [body, named] of [
      [{ subject: 'x', template: { id: 'tpl' } }, 'template'],
      [{ subject: 'x', template: null }, 'template'],
      [{ agentTaskId: 'task1' }, 'agentTaskId'],
    ] as const) {
      const reply = await app.http('POST', `/v1/spaces/${space.id}/change-requests`, { body });
      expect({ body, status: reply.status }).toEqual({ body, status: 400 });
      expect(messageOf(reply.body)).toMatch(new RegExp(`^${named} is not accepted: `));
    }
    const org = `/v1/orgs/${app.organizationId}/change-requests`;
    for (const [path, named] of [
      [`${org}?site=site1`, 'site'],
      [`${org}?topic=t1`, 'topic'],
      [`${org}?styleguideRun=run1`, 'styleguideRun'],
      [`/v1/spaces/${space.id}/change-requests?topic=t1`, 'topic'],
    ] as const) {
      const reply = await app.http('GET', path);
      expect({ path, status: reply.status }).toEqual({ path, status: 400 });
      expect(messageOf(reply.body)).toMatch(new RegExp(`^${named} is not accepted: `));
    }
    for (const finding of ['none', 'all']) {
      const reply = await app.api().orgs.listChangeRequestsForOrganization(app.organizationId, {
        finding: finding as never,
      });
      expect(reply.status).toBe(200);
    }
    expect((await app.http('GET', `${org}?finding=some`)).status).toBe(400);
  });

  it('filters lists by requested reviewer and contributor, and orders them by update or creation', async () => {
    const app = current();
    const space = await newSpace();
    const other = await newSpace('Other');
    const reviewer = await addUser(app, { organizationId: app.organizationId, role: 'review' });
    const writer = await addUser(app, { organizationId: app.organizationId, role: 'edit' });
    const first = await newChangeRequest(space.id, 'First');
    const second = await newChangeRequest(space.id, 'Second');
    const third = await newChangeRequest(other.id, 'Third');
    for (const [s, cr] of [
      [space.id, first.id],
      [other.id, third.id],
    ]) {
      await app.api().spaces.requestReviewersForChangeRequest(s, cr, { users: [reviewer.userId] });
    }
    const edit = await app.http('POST', `/v1/spaces/${space.id}/change-requests/${first.id}/content`, {
      token: writer.token,
      body: { changes: [{ operation: 'insert_page', title: 'A', document: { markdown: 'A.\n' } }] },
    });
    expect(edit.status).toBe(200);
    // `first` is now the most recently updated of the space's, `second` the most recently created.
    const ids = (reply: { data: { items: { id: string }[] } }) => reply.data.items.map((c) => c.id);
    const spaces = app.api().spaces;
    expect(ids(await spaces.listChangeRequestsForSpace(space.id))).toEqual([first.id, second.id]);
    expect(ids(await spaces.listChangeRequestsForSpace(space.id, { orderBy: 'createdAt' as never }))).toEqual(
      [second.id, first.id],
    );
    expect(
      ids(await spaces.listChangeRequestsForSpace(space.id, { requestedReviewer: reviewer.userId })),
    ).toEqual([first.id]);
    const orgs = app.api().orgs;
    const inOrg = await orgs.listChangeRequestsForOrganization(app.organizationId, {
      requestedReviewer: reviewer.userId,
      orderBy: 'createdAt' as never,
    });
    expect(ids(inOrg)).toEqual([third.id, first.id]);
    expect(inOrg.data.count).toBe(2);
    expect(
      ids(await orgs.listChangeRequestsForOrganization(app.organizationId, { contributor: writer.userId })),
    ).toEqual([first.id]);
    expect(
      ids(
        await orgs.listChangeRequestsForOrganization(app.organizationId, {
          contributor: writer.userId,
          requestedReviewer: reviewer.userId,
        }),
      ),
    ).toEqual([first.id]);
    // One page at a time, by the cursor.
    const paged = await orgs.listChangeRequestsForOrganization(app.organizationId, {
      requestedReviewer: reviewer.userId,
      limit: 1,
    });
    expect(ids(paged)).toEqual([first.id]);
    const rest = await orgs.listChangeRequestsForOrganization(app.organizationId, {
      requestedReviewer: reviewer.userId,
      limit: 1,
      page: paged.data.next?.page,
    });
    expect(ids(rest)).toEqual([third.id]);

    // A review ends the request: the change request leaves the reviewer's list.
    await app
      .api(reviewer.token)
      .spaces.submitChangeRequestReview(space.id, first.id, { status: 'approved' as never });
    expect(
      ids(await spaces.listChangeRequestsForSpace(space.id, { requestedReviewer: reviewer.userId })),
    ).toEqual([]);
    // Its status follows into the filtered lists.
    await spaces.updateChangeRequestById(other.id, third.id, { status: ChangeRequestStatus.Draft });
    expect(
      ids(
        await orgs.listChangeRequestsForOrganization(app.organizationId, {
          requestedReviewer: reviewer.userId,
          status: [ChangeRequestStatus.Draft],
        }),
      ),
    ).toEqual([third.id]);
    for (const query of ['orderBy=number', 'requestedReviewer=a.b']) {
      const reply = await app.http('GET', `/v1/spaces/${space.id}/change-requests?${query}`);
      expect({ query, status: reply.status }).toEqual({ query, status: 400 });
      expect(messageOf(reply.body)).toContain(query.split('=')[0]);
    }
  });
});
