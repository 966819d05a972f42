import { join } from 'node:path';
import type { ContentChangeInput } from '@app/content/domain/changes';
import { importRepository, readRepository } from '../../apps/cli/src/gitsync-import';
import type { TestApp } from './app-harness';

/** The Git Sync repository written for the tests: every construct of GitBook's Markdown, nested pages, assets. */
export const GITSYNC_FIXTURE = join(__dirname, '..', 'fixtures', 'gitsync');

/**
 * The fixture imported into `space` through the API, as `import:gitsync` does it through the service:
 * one change request, its batches through `POST …/content`, then merged. The change request's id.
 */
export async function importFixture(app: TestApp, space: string, subject = 'From Git'): Promise<string> {
  const cr = (await app.api().spaces.createChangeRequest(space, { subject })).data.id;
  await importRepository(await readRepository(GITSYNC_FIXTURE), (changes) =>
    sendBatch(app, space, cr, changes),
  );
  const merged = await app.http('POST', `/v1/spaces/${space}/change-requests/${cr}/merge`);
  if (merged.status !== 200) throw new Error(`the import's merge answered ${merged.status}`);
  return cr;
}

/** One batch through `POST …/content`, answering what the CLI's service call does. */
async function sendBatch(app: TestApp, space: string, cr: string, changes: ContentChangeInput[]) {
  const reply = await app.http('POST', `/v1/spaces/${space}/change-requests/${cr}/content?compat=false`, {
    body: { changes },
  });
  if (reply.status !== 200) throw new Error(`a batch of the import answered ${reply.status}`);
  const body = reply.body as {
    changes: { object: string; ref?: string; page: { id: string } }[];
    insertedFiles: { id: string }[];
  };
  return {
    pages: new Map(body.changes.flatMap((c) => (c.ref ? [[c.ref, c.page.id] as const] : []))),
    files: body.insertedFiles.map((f) => f.id),
  };
}
