import type { TestApp } from './app-harness';

export type Change = Record<string, unknown>;

/** Writes the changes in a new change request of the space and merges it; answers the ids of the pages changed. */
export async function publish(app: TestApp, space: string, changes: Change[]): Promise<string[]> {
  const cr = (await app.api().spaces.createChangeRequest(space, { subject: 'Edit' })).data;
  const written = await app.http(
    'POST',
    `/v1/spaces/${space}/change-requests/${cr.id}/content?compat=false`,
    {
      body: { changes },
    },
  );
  expect(written.status).toBe(200);
  expect((await app.api().spaces.mergeChangeRequest(space, cr.id)).data.result).toBe('merge');
  return (written.body as { changes: { page: { id: string } | string }[] }).changes.map((c) =>
    typeof c.page === 'string' ? c.page : c.page.id,
  );
}

/** An `insert_page` change of a Markdown page. */
export const markdownPage = (title: string, markdown: string, extra: Change = {}) => ({
  operation: 'insert_page',
  title,
  document: { markdown },
  ...extra,
});
