import type { FixtureContext, PathFixture } from '@app/platform/feature/path-fixture';

type Update = {
  changeRequest: { id: string };
  changes: { page: { id: string } }[];
  insertedFiles: { id: string }[];
};

/**
 * The route suites' content: a change request with a page, a page under it and a file, merged into the
 * space, so the space's content, its current revision and a newer change request all have them.
 */
async function mergedContent({ call, ids, label }: FixtureContext) {
  const spaces = `/v1/spaces/${ids.spaceId}`;
  const cr = (await call('POST', `${spaces}/change-requests`, { subject: `${label} content` })) as {
    id: string;
  };
  const update = (await call('POST', `${spaces}/change-requests/${cr.id}/content?compat=false`, {
    changes: [
      {
        operation: 'insert_page',
        title: 'Fixture page',
        slug: 'fixture',
        document: { markdown: 'Fixture body.\n' },
      },
      { operation: 'insert_files', files: [{ name: 'logo.png', url: 'https://example.com/logo.png' }] },
    ],
  })) as Update;
  // A page under it, so that page paths are checked nested, as GitBook's client sends them.
  await call('POST', `${spaces}/change-requests/${cr.id}/content`, {
    changes: [
      {
        operation: 'insert_page',
        title: 'Nested page',
        slug: 'nested',
        into: update.changes[0].page.id,
        document: { markdown: 'Nested body.\n' },
      },
    ],
  });
  await call('POST', `${spaces}/change-requests/${cr.id}/merge`);
  return update;
}

/** One merged content per space, which every fixture below reads (worlds may be made concurrently). */
const made = new Map<string, Promise<Update>>();
const content = (ctx: FixtureContext) => {
  let update = made.get(ctx.ids.spaceId);
  if (!update) {
    update = mergedContent(ctx);
    made.set(ctx.ids.spaceId, update);
  }
  return update;
};

export const contentFixtures: Record<string, PathFixture> = {
  pageId: async (ctx) => (await content(ctx)).changes[0].page.id,
  fileId: async (ctx) => (await content(ctx)).insertedFiles[0].id,
  pagePath: async (ctx) => {
    await content(ctx);
    return 'fixture/nested';
  },
  revisionId: async ({ call, ids }) =>
    ((await call('GET', `/v1/spaces/${ids.spaceId}`)) as { revision: string }).revision,
  changeRequestId: async ({ call, ids, label }) =>
    (
      (await call('POST', `/v1/spaces/${ids.spaceId}/change-requests`, { subject: `${label} change` })) as {
        id: string;
      }
    ).id,
  reviewId: async ({ call, ids }) =>
    (
      (await call('POST', `/v1/spaces/${ids.spaceId}/change-requests/${ids.changeRequestId}/reviews`, {
        status: 'approved',
      })) as { id: string }
    ).id,
  userId: async ({ call, ids }) =>
    (
      (await call('GET', `/v1/spaces/${ids.spaceId}/change-requests/${ids.changeRequestId}`)) as {
        createdBy: { id: string };
      }
    ).createdBy.id,
};
