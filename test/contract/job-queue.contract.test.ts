import { createHook } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { type Clock, ManualClock, SystemClock } from '@app/platform/clock/clock';
import { BullMqJobQueue, type CountingJobQueue, InProcessJobQueue, type Job } from '@app/platform/jobs';
import { type RecordingLogger as Logs, recordingLogger } from '../support/recording-logger';

interface Harness {
  queue: CountingJobQueue;
  clock: Clock;
  logs: Logs;
  /** Lets `ms` pass for the queue. */
  pass(ms: number): Promise<void>;
  /** Lets `ms` pass for the queue, then waits for the jobs that became due. */
  elapse(ms: number): Promise<void>;
  /** Long enough to see a delayed job not run, short enough to wait for in real time. */
  delayMs: number;
}

type HarnessFactory = (logs: Logs) => Harness;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Lets time pass in small steps until `check` holds. */
async function eventually(
  h: Harness,
  check: () => boolean | Promise<boolean>,
  timeoutMs = 5000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await h.elapse(20);
  }
}

/**
 * Records the timers and sockets created from now on; `open()` lists those still keeping the process
 * alive, as Jest's open handle detection would see them. Jest's reporters, running in this process
 * when Jest runs in band, may start a timer at any time; they are left out.
 */
function trackHandles(): { open(): string[] } {
  const live = new Map<number, { type: string; resource: { hasRef?: () => boolean } }>();
  const hook = createHook({
    init(id, type, _trigger, resource) {
      if (type !== 'Timeout' && type !== 'TCPWRAP') return;
      if (new Error().stack?.includes('@jest/reporters')) return;
      live.set(id, { type, resource });
    },
    destroy(id) {
      live.delete(id);
    },
  }).enable();
  return {
    open() {
      hook.disable();
      return [...live.values()].filter(({ resource }) => resource.hasRef?.() ?? true).map(({ type }) => type);
    },
  };
}

function jobQueueContract(label: string, factory: HarnessFactory): void {
  describe(`JobQueue contract: ${label}`, () => {
    const created: Harness[] = [];
    const setup = (): Harness => {
      const h = factory(recordingLogger());
      created.push(h);
      return h;
    };

    afterEach(async () => {
      await Promise.all(created.splice(0).map((h) => h.queue.close()));
    });

    it('runs a job once with its data, id, name and attempt 1', async () => {
      const h = setup();
      const runs: Job<{ n: number }>[] = [];
      h.queue.register<{ n: number }>('greet', async (job) => {
        runs.push(job);
      });
      await h.queue.start();
      await h.queue.enqueue('greet', { n: 42 }, { jobId: 'space:1/greet' });
      await h.queue.drain(5000);
      expect(runs).toEqual([{ id: 'space:1/greet', name: 'greet', data: { n: 42 }, attempt: 1 }]);
      expect(await h.queue.state('greet', 'space:1/greet')).toBe('completed');
      expect(await h.queue.state('greet', 'never-enqueued')).toBe('unknown');
    });

    it("writes a handler's own lines through the queue's logger, naming the job", async () => {
      const h = setup();
      h.queue.register<string>('report', async (job, log) => {
        log.info(`saw ${job.data}`);
      });
      await h.queue.start();
      await h.queue.enqueue('report', 'it', { jobId: 'r-1' });
      await h.queue.drain(5000);
      expect(h.logs.infos).toEqual(['Job report/r-1: saw it']);
    });

    it('runs a job id enqueued twice only once, also after it completed', async () => {
      const h = setup();
      const seen: string[] = [];
      h.queue.register<string>('index', async (job) => {
        seen.push(job.data);
      });
      // Integer-like ids are ids too, though BullMQ refuses them as they are.
      await h.queue.enqueue('index', 'first', { jobId: '1' });
      await h.queue.enqueue('index', 'second', { jobId: '1' });
      expect(await h.queue.state('index', '1')).toBe('waiting');
      await h.queue.start();
      await h.queue.drain(5000);
      await h.queue.enqueue('index', 'third', { jobId: '1' });
      await h.queue.enqueue('index', 'other', { jobId: '2' });
      await h.queue.drain(5000);
      expect(seen).toEqual(['first', 'other']);
    });

    it('retries a failing handler with exponential backoff until it succeeds', async () => {
      const h = setup();
      const startedAt: number[] = [];
      h.queue.register('flaky', async (job) => {
        startedAt.push(h.clock.now());
        if (job.attempt < 3) throw new Error(`boom ${job.attempt}`);
      });
      await h.queue.start();
      await h.queue.enqueue('flaky', {}, { jobId: 'f-1', attempts: 5, backoffMs: 10 });
      await eventually(h, async () => (await h.queue.state('flaky', 'f-1')) === 'completed');
      expect(startedAt).toHaveLength(3);
      expect(startedAt[1] - startedAt[0]).toBeGreaterThanOrEqual(10);
      expect(startedAt[2] - startedAt[1]).toBeGreaterThanOrEqual(20);
      await eventually(h, () => h.logs.warnings.length === 2);
      expect(h.logs.errors).toEqual([]);
    });

    it("records a job as 'failed' after its attempts are used up", async () => {
      const h = setup();
      const attempts: number[] = [];
      h.queue.register('doomed', async (job) => {
        attempts.push(job.attempt);
        throw new Error('always');
      });
      await h.queue.start();
      await h.queue.enqueue('doomed', {}, { jobId: 'd-1', attempts: 3, backoffMs: 10 });
      await eventually(h, () => h.logs.errors.length === 1);
      expect(await h.queue.state('doomed', 'd-1')).toBe('failed');
      expect(attempts).toEqual([1, 2, 3]);
      expect(h.logs.errors[0]).toContain('d-1');
      await h.elapse(100);
      expect(attempts).toHaveLength(3);
    });

    it('runs a delayed job only once its time has come', async () => {
      const h = setup();
      const ranAt: number[] = [];
      h.queue.register('later', async () => {
        ranAt.push(h.clock.now());
      });
      await h.queue.start();
      const runAt = h.clock.now() + h.delayMs;
      await h.queue.enqueue('later', {}, { jobId: 'l-1', runAt });
      await h.elapse(h.delayMs / 3);
      expect(ranAt).toEqual([]);
      expect(await h.queue.state('later', 'l-1')).toBe('delayed');
      await h.elapse(h.delayMs);
      await eventually(h, () => ranAt.length === 1);
      expect(ranAt[0]).toBeGreaterThanOrEqual(runAt);
      expect(await h.queue.state('later', 'l-1')).toBe('completed');
    });

    // A job for a name without a handler here: see "across processes" below.
    it('refuses a second handler for a name and a handler after start', async () => {
      const h = setup();
      h.queue.register('once', async () => {});
      expect(() => h.queue.register('once', async () => {})).toThrow(/already registered/);
      await h.queue.start();
      expect(() => h.queue.register('late', async () => {})).toThrow(/after start/);
    });

    it('counts jobs per name by state', async () => {
      const h = setup();
      h.queue.register('a', async () => {
        throw new Error('no');
      });
      h.queue.register('b', async () => {});
      await h.queue.enqueue('a', {}, { jobId: 'a-1', attempts: 1 });
      await h.queue.enqueue('b', {}, { jobId: 'b-1' });
      await h.queue.enqueue('b', {}, { jobId: 'b-2', runAt: h.clock.now() + 60_000 });
      expect(await h.queue.counts()).toEqual({
        a: { waiting: 1, active: 0, delayed: 0, failed: 0 },
        b: { waiting: 1, active: 0, delayed: 1, failed: 0 },
      });
      await h.queue.start();
      await h.queue.drain(5000);
      expect(await h.queue.counts()).toEqual({
        a: { waiting: 0, active: 0, delayed: 0, failed: 1 },
        b: { waiting: 0, active: 0, delayed: 1, failed: 0 },
      });
    });

    it('drain waits for running jobs and ignores jobs not yet due', async () => {
      const h = setup();
      const done: string[] = [];
      h.queue.register<string>('slow', async (job) => {
        await sleep(50);
        done.push(job.data);
      });
      await h.queue.start();
      await h.queue.drain(1000);
      await h.queue.enqueue('slow', 'a', { jobId: 's-a' });
      await h.queue.enqueue('slow', 'b', { jobId: 's-b' });
      await h.queue.enqueue('slow', 'later', { jobId: 's-later', runAt: h.clock.now() + 60_000 });
      await h.queue.drain(5000);
      expect(done).toEqual(['a', 'b']);
      expect(await h.queue.state('slow', 's-later')).toBe('delayed');
    });

    it('drain gives up after its timeout when jobs cannot run', async () => {
      const h = setup();
      h.queue.register('idle', async () => {});
      await h.queue.enqueue('idle', {}, { jobId: 'i-1' });
      await expect(h.queue.drain(100)).rejects.toThrow(/not drained/);
    });

    it('counts a delayed job that has become due as waiting', async () => {
      const h = setup();
      h.queue.register('due', async () => {});
      await h.queue.enqueue('due', {}, { jobId: 'due-1', runAt: h.clock.now() + 50 });
      await h.queue.drain(100);
      await h.pass(100);
      expect(await h.queue.state('due', 'due-1')).toBe('waiting');
      await expect(h.queue.drain(100)).rejects.toThrow(/not drained/);
    });

    it('close waits for running jobs and leaves no open handles', async () => {
      const handles = trackHandles();
      const h = setup();
      let started!: () => void;
      const running = new Promise<void>((resolve) => {
        started = resolve;
      });
      let finished = false;
      h.queue.register('long', async () => {
        started();
        await sleep(100);
        finished = true;
      });
      await h.queue.start();
      await h.queue.enqueue('long', {}, { jobId: 'c-1' });
      await h.queue.enqueue('long', {}, { jobId: 'c-2', runAt: h.clock.now() + 60_000 });
      await running;
      await h.queue.close();
      expect(finished).toBe(true);
      await sleep(20);
      await new Promise((resolve) => setImmediate(resolve));
      expect(handles.open()).toEqual([]);
    });
  });
}

jobQueueContract('InProcessJobQueue', (logs) => {
  // Frozen apart from advance(), so that only the clock jump can make a delayed job due in time.
  const start = Date.now();
  const clock = new ManualClock(() => start);
  const queue = new InProcessJobQueue({ clock, logger: logs });
  return {
    queue,
    clock,
    logs,
    delayMs: 60_000,
    pass: async (ms) => clock.advance(ms),
    elapse: async (ms) => {
      clock.advance(ms);
      // Shorter than the 1 s poll interval: jobs must start on the jump itself.
      await queue.drain(500);
    },
  };
});

jobQueueContract('BullMqJobQueue', (logs) => {
  const redisUrl = process.env.REDIS_URL;
  if (!redisUrl) throw new Error('REDIS_URL is not set: the test global setup starts a private Redis');
  const queue = new BullMqJobQueue({
    redisUrl,
    prefix: `test-${randomUUID()}`,
    clock: new SystemClock(),
    logger: logs,
  });
  return {
    queue,
    clock: new SystemClock(),
    logs,
    delayMs: 300,
    pass: sleep,
    elapse: async (ms) => {
      await sleep(ms);
      await queue.drain(2000);
    },
  };
});

describe('BullMqJobQueue across processes', () => {
  it('takes a job from a process that has no handler for it, and tells its state, for a worker that runs it', async () => {
    const redisUrl = process.env.REDIS_URL as string;
    const prefix = `test-${randomUUID()}`;
    const logs = recordingLogger();
    const producer = new BullMqJobQueue({ redisUrl, prefix, clock: new SystemClock(), logger: logs });
    const worker = new BullMqJobQueue({ redisUrl, prefix, clock: new SystemClock(), logger: logs });
    try {
      const runs: string[] = [];
      worker.register<string>('render', async (job) => {
        runs.push(job.data);
      });
      await producer.enqueue('render', 'ahead', { jobId: 'r:1' });
      expect(await producer.state('render', 'r:1')).toBe('waiting');
      await worker.start();
      await worker.drain(5000);
      expect(runs).toEqual(['ahead']);
      expect(await producer.state('render', 'r:1')).toBe('completed');
    } finally {
      await Promise.all([producer.close(), worker.close()]);
    }
  });

  it('refuses, in process, a job nothing here runs', async () => {
    const queue = new InProcessJobQueue({ clock: new SystemClock() });
    await expect(queue.enqueue('render', {}, { jobId: 'x' })).rejects.toThrow(/No handler/);
    await queue.close();
  });
});
