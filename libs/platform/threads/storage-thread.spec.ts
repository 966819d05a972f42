import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StorageThread } from './storage-thread';

/**
 * A stand-in for the storage worker: on `start` it keeps `keepMb` of arrays alive (more than the first
 * heap limit allows), then reports itself started; `close` ends it.
 */
const SCRIPT = `
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

describe('StorageThread', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'storage-thread-'));
    writeFileSync(join(dir, 'worker.js'), SCRIPT);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('starts again with twice the heap limit after running out of it, so a batch that needs more is never stuck', async () => {
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const thread = new StorageThread({
      script: join(dir, 'worker.js'),
      workerData: { keepMb: 48 },
      heapMb: 32,
    });
    try {
      // 48 MB of arrays cannot live under 32 MB: the thread runs out and exits, and the start with it.
      await expect(thread.start()).rejects.toThrow(/storage thread exited/);
      const logged = stderr.mock.calls.map(([text]) => String(text)).join('');
      expect(logged).toMatch(/next heap limit: 64 MB/);
      // The next thread has 64 MB: the same start succeeds.
      await new Promise((resolve) => setTimeout(resolve, 1200));
      await thread.start();
      expect(thread.checkpoint()).toBe(48);
    } finally {
      await thread.close();
      stderr.mockRestore();
    }
  }, 20_000);
});
