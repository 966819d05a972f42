import type { Space } from '@gitbook/api';
import { useTestApp } from '../support/app-harness';

const messageOf = (body: unknown) => (body as { error: { message: string } }).error.message;

describe('GitBook request fields of change requests, reviews and content reads', () => {
  const current = useTestApp();

  const newSpace = async (title = 'Docs') => {
    const app = current();
    return (await app.api().orgs.createSpace(app.organizationId, { title })).data as Space;
  };
  const newChangeRequest = async (space: string, subject = 'Edit') => {
    const reply = await current().api().spaces.createChangeRequest(space, { subject });
    expect(reply.status).toBe(201);
    return reply.data;
  };

  it('reads pages with dereferenced true, false and reusable-contents alike, and refuses other values', async () => {
    const app = current();
    const space = await newSpace();
    const cr = await newChangeRequest(space.id);
    const edited = await app.http(
      'POST',
      `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`,
      {
        body: { changes: [{ operation: 'insert_page', title: 'Intro', document: { markdown: 'Hello.\n' } }] },
      },
    );
    expect(edited.status).toBe(200);
    const page = (edited.body as { changes: { page: { id: string } }[] }).changes[0].page.id;
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
});
