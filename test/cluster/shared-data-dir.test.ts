import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { builtFile, childEnv } from '../support/process-harness';
import { removeDir, tempDir } from '../support/temp-dir';

// Each child waits for the same instant, then opens both embedded stores (built in `dist`) on the shared directory.
const openAtOnce = (dist: string) => `
const [eventsPath, viewsPath, at] = process.argv.slice(1);
const { SqliteEventStore } = require(${JSON.stringify(join(dist, 'eventstore', 'sqlite-event-store'))});
const { SqliteReadStore } = require(${JSON.stringify(join(dist, 'readstore', 'sqlite-read-store'))});
while (Date.now() < Number(at)) {}
try {
  const events = new SqliteEventStore({ path: eventsPath });
  const views = new SqliteReadStore({ path: viewsPath });
  process.stdout.write('opened');
  // Closing waits for the WAL checkpoint thread, which must not let the process end before it answers.
  if (process.env.CLOSE_STORES) events.close().then(() => views.close()).then(() => process.stdout.write(' closed'));
} catch (error) {
  process.stdout.write(String(error));
}
`;

function openInChild(script: string, dir: string, at: number, close = false): Promise<string> {
  return new Promise((resolve, reject) => {
    const args = ['-e', script, join(dir, 'events.sqlite'), join(dir, 'views.sqlite'), String(at)];
    const child = spawn(process.execPath, args, {
      env: { ...childEnv(process.env), CLOSE_STORES: close ? '1' : '' },
    });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    // A child that opened the stores but does not exit has left something holding its event loop.
    const stuck = setTimeout(() => {
      out += ' (still running: killed)';
      child.kill('SIGKILL');
    }, 10_000);
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(stuck);
      resolve(out);
    });
  });
}

/** Cluster services on one data directory start together; none may fail on the others' locks. */
describe('several processes opening one new data directory at once', () => {
  it('all open the embedded event store and read store', async () => {
    const script = openAtOnce(builtFile('libs', 'platform'));
    for (let round = 0; round < 5; round++) {
      const dir = tempDir('shared-open-');
      try {
        const at = Date.now() + 700;
        const results = await Promise.all(
          Array.from({ length: 8 }, (_, i) => openInChild(script, dir, at, i % 2 === 1)),
        );
        expect(results).toEqual(
          Array.from({ length: 8 }, (_, i) => (i % 2 === 1 ? 'opened closed' : 'opened')),
        );
      } finally {
        removeDir(dir);
      }
    }
  }, 60_000);
});
