import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compiledScript } from './compiled-script';

/**
 * A stand-in for the storage worker: on `start` it keeps `keepMb` of arrays alive (more than the first
 * heap limit allows), then reports itself started; `close` ends it.
 */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const kept = [];
parentPort.on('message', (request) => {
  if (request.type === 'start') {
    for (let i = 0; i < workerData.keepMb; i++) kept.push(new Array(128 * 1024).fill(i));
    parentPort.postMessage({ type: 'started', position: kept.length });
  } else if (request.type === 'close') {
    parentPort.postMessage({ type: 'closed' });
  }
});
`;

/** Starts a StorageThread over that worker under a 32 MB limit, twice; prints what each start gave. */
const RUN = `
const { StorageThread } = require(process.argv[2]);
const thread = new StorageThread({ script: process.argv[3], workerData: { keepMb: 48 }, heapMb: 32 });
const outcome = (p) => p.then(() => 'started at ' + thread.checkpoint(), (e) => e.message);
(async () => {
  const first = await outcome(thread.start());
  await new Promise((resolve) => setTimeout(resolve, 1200));
  const second = await outcome(thread.start());
  await thread.close();
  process.stdout.write(JSON.stringify([first, second]));
})();
`;

describe('StorageThread', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'storage-thread-'));
    writeFileSync(join(dir, 'worker.js'), WORKER);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('starts again with twice the heap limit after running out of it, so a batch that needs more is never stuck', () => {
    // In a process of its own: a process-wide --max-old-space-size (the test runner's) overrides every
    // thread's limit.
    const thread = compiledScript(__dirname, 'storage-thread.js');
    if (!thread) throw new Error('dist/ has no storage-thread.js: run npm run build');
    const run = join(dir, 'run.js');
    writeFileSync(run, RUN);
    const result = spawnSync(process.execPath, [run, thread, join(dir, 'worker.js')], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    // 48 MB of arrays cannot live under 32 MB: the first thread runs out and the start fails with it;
    // the next thread has 64 MB and the same start succeeds.
    const [first, second] = JSON.parse(result.stdout) as string[];
    expect(first).toMatch(/storage thread exited/);
    expect(result.stderr).toMatch(/next heap limit: 64 MB/);
    expect(second).toBe('started at 48');
  }, 30_000);
});
