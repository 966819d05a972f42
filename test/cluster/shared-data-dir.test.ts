import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const DIST = join(__dirname, '..', '..', 'dist', 'libs', 'platform', 'src');

// Each child waits for the same instant, then opens both embedded stores on the shared directory.
const OPEN_AT_ONCE = `
const [eventsPath, viewsPath, at] = process.argv.slice(1);
const { SqliteEventStore } = require(${JSON.stringify(join(DIST, 'eventstore', 'sqlite-event-store'))});
const { SqliteReadStore } = require(${JSON.stringify(join(DIST, 'readstore', 'sqlite-read-store'))});
while (Date.now() < Number(at)) {}
try {
  new SqliteEventStore({ path: eventsPath });
  new SqliteReadStore({ path: viewsPath });
  process.stdout.write('opened');
} catch (error) {
  process.stdout.write(String(error));
}
`;

function openInChild(dir: string, at: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [
      '-e',
      OPEN_AT_ONCE,
      join(dir, 'events.sqlite'),
      join(dir, 'views.sqlite'),
      String(at),
    ]);
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
    if (!existsSync(DIST)) throw new Error('dist/ is missing: run `npm run build` before the cluster suite');
    for (let round = 0; round < 5; round++) {
      const dir = mkdtempSync(join(tmpdir(), 'shared-open-'));
      try {
        const at = Date.now() + 700;
        const results = await Promise.all(Array.from({ length: 8 }, () => openInChild(dir, at)));
        expect(results).toEqual(Array(8).fill('opened'));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  }, 60_000);
});
