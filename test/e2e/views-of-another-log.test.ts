import { copyFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { eventually, removeDir, startTestApp } from '../support/app-harness';

// Not in e2e-mongo: it moves the embedded views' file (views.sqlite) between data directories.

const VIEWS_FILE = 'views.sqlite';

/** Puts the views of `from` (the file and its WAL) in place of those of `to`. */
function moveViews(from: string, to: string): void {
  for (const name of readdirSync(to)) if (name.startsWith(VIEWS_FILE)) rmSync(join(to, name));
  for (const name of readdirSync(from))
    if (name.startsWith(VIEWS_FILE)) copyFileSync(join(from, name), join(to, name));
}

/**
 * A server whose views were built from another, longer log (a data directory put together from two
 * backups, say): the projector must not follow this log from a checkpoint it does not have, and the
 * server must say so where an operator looks, rather than serve views that match no log.
 */
describe('views built from another log', () => {
  let logDir: string;
  let otherDir: string;

  beforeAll(async () => {
    const short = await startTestApp();
    logDir = short.dataDir;
    await short.close();
    const long = await startTestApp();
    otherDir = long.dataDir;
    for (const title of ['One', 'Two', 'Three']) {
      const created = await long.http('POST', `/v1/orgs/${long.organizationId}/spaces`, { body: { title } });
      expect(created.status).toBe(201);
    }
    await long.close();
    moveViews(otherDir, logDir);
  });

  afterAll(() => {
    if (logDir) removeDir(logDir);
    if (otherDir) removeDir(otherDir);
  });

  it.each([
    ['on the storage thread', true],
    ['in process', false],
  ])(
    'answers /ready 503 naming the checkpoint beyond the head, projector %s; /health stays 200',
    async (_, storageThread) => {
      const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
      const app = await startTestApp({ dataDir: logDir, config: { storageThread } });
      try {
        const head = await app.built.storage.events.headPosition();
        const failed = {
          status: 'failed',
          reason: expect.stringMatching(`but the log ends at ${head}: it was kept for another log`),
        };
        let body: unknown;
        // The projector's own subscription reports it too, once it has looked at the head: in process
        // through the log's check, on the storage thread through the thread's.
        const ownCheck = storageThread ? 'storageThread' : 'eventStore';
        await eventually(async () => {
          const response = await fetch(`${app.url}/ready`);
          expect(response.status).toBe(503);
          body = await response.json();
          const checks = (body as { checks: Record<string, { status: string }> }).checks;
          return checks[ownCheck].status === 'failed';
        });
        expect(body).toMatchObject({
          status: 'failed',
          checks: { readStore: failed, jobQueue: { status: 'up' } },
        });
        expect(body).toMatchObject({ checks: { [ownCheck]: failed } });
        const health = await fetch(`${app.url}/health`);
        expect(health.status).toBe(200);
        expect(await health.json()).toEqual({ status: 'ok' });
      } finally {
        await app.close();
        stderr.mockRestore();
      }
    },
  );
});
