import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TaskFailed, WorkerPool } from './worker-pool';

/** A task for the test thread: busy for `ms`, then `value` (or a failure). */
type Busy = { ms: number; value: string; fail?: boolean };

/** The test thread: runs each request synchronously, in the order they come, as the pool's scripts do. */
const SCRIPT = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', ({ id, input }) => {
  const until = Date.now() + input.ms;
  while (Date.now() < until) {}
  parentPort.postMessage(input.fail ? { id, ok: false, message: 'failed as asked' } : { id, ok: true, output: input.value });
});
`;

describe('WorkerPool', () => {
  let dir: string;
  let script: string;
  const pools: WorkerPool<Busy, string>[] = [];
  const pool = (options: { size: number; depth?: number; timeoutMs?: number; maxWaiting?: number }) => {
    const made = new WorkerPool<Busy, string>({
      script,
      resourceLimits: {},
      timeoutMs: 2_000,
      maxWaiting: 100,
      ...options,
    });
    pools.push(made);
    return made;
  };

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'worker-pool-'));
    script = join(dir, 'busy.js');
    writeFileSync(script, SCRIPT);
  });
  afterEach(async () => {
    await Promise.all(pools.splice(0).map((p) => p.close()));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('answers every task, handing a thread several ahead of its answers', async () => {
    const threads = pool({ size: 2, depth: 4 });
    const inputs = Array.from({ length: 20 }, (_, i) => ({ ms: 2, value: `v${i}` }));
    expect(await Promise.all(inputs.map((input) => threads.run(input)))).toEqual(inputs.map((i) => i.value));
    expect(threads.threads).toBe(2);
  });

  it('times a task from when its thread starts it, not from when it was handed over', async () => {
    const threads = pool({ size: 1, depth: 3, timeoutMs: 400 });
    const started = Date.now();
    const answers = await Promise.all([1, 2, 3].map((n) => threads.run({ ms: 250, value: `t${n}` })));
    expect(answers).toEqual(['t1', 't2', 't3']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(750);
  });

  it('refuses a task past its time, and runs the tasks handed to its thread behind it on another', async () => {
    const threads = pool({ size: 1, depth: 3, timeoutMs: 300 });
    const stuck = threads.run({ ms: 5_000, value: 'never' });
    const behind = [threads.run({ ms: 1, value: 'a' }), threads.run({ ms: 1, value: 'b' })];
    await expect(stuck).rejects.toEqual(new TaskFailed('timeout', 'over its timeout budget'));
    expect(await Promise.all(behind)).toEqual(['a', 'b']);
  });

  it("refuses a task the script fails, and goes on with the thread's next", async () => {
    const threads = pool({ size: 1, depth: 2 });
    const failed = threads.run({ ms: 1, value: 'x', fail: true });
    const next = threads.run({ ms: 1, value: 'y' });
    await expect(failed).rejects.toEqual(new TaskFailed('failed', 'failed as asked'));
    expect(await next).toBe('y');
    expect(threads.threads).toBe(1);
  });

  it('refuses at once what would wait past maxWaiting, and everything on close', async () => {
    const threads = pool({ size: 1, depth: 1, maxWaiting: 1 });
    const running = threads.run({ ms: 300, value: 'r' });
    const waiting = threads.run({ ms: 1, value: 'w' });
    await expect(threads.run({ ms: 1, value: 'z' })).rejects.toMatchObject({ reason: 'busy' });
    const outcomes = Promise.allSettled([running, waiting]);
    await threads.close();
    expect((await outcomes).map((o) => o.status === 'rejected' && (o.reason as TaskFailed).reason)).toEqual([
      'closed',
      'closed',
    ]);
  });
});
