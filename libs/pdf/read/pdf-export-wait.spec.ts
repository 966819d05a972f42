import type { JobState } from '@app/platform/jobs/job-queue.port';
import { awaitExport, type ExportWaitLimits } from './pdf-export-wait';

const LIMITS: ExportWaitLimits = { pickupMs: 300, runningMs: 1000, settleMs: 200, pollMs: 50 };

/**
 * A watch whose job goes through `states`, one per poll (the last one stays), and whose PDF is stored
 * from poll `storedAt` on; time moves by `pollMs` per poll.
 */
function scenario(states: (JobState | Error)[], storedAt = Number.POSITIVE_INFINITY) {
  let time = 0;
  let polls = 0;
  const enqueued: number[] = [];
  const result = awaitExport(
    {
      stored: async () => (polls >= storedAt ? 'pdf' : undefined),
      state: async () => {
        const state = states[Math.min(polls, states.length - 1)];
        if (state instanceof Error) throw state;
        return state;
      },
      enqueue: async () => {
        enqueued.push(polls);
      },
    },
    LIMITS,
    () => time,
    async (ms) => {
      time += ms;
      polls += 1;
    },
  );
  return { result, enqueued, elapsed: () => time };
}

describe('awaitExport', () => {
  it('waits while the job waits and runs, and answers what it stored', async () => {
    const s = scenario(['waiting', 'active', 'active', 'active'], 4);
    await expect(s.result).resolves.toBe('pdf');
    expect(s.elapsed()).toBe(200);
  });

  it('answers at once an export stored before', async () => {
    const s = scenario(['completed'], 0);
    await expect(s.result).resolves.toBe('pdf');
    expect(s.elapsed()).toBe(0);
  });

  it('gives up on a job nothing picks up (no worker, a backlog), and on one running too long', async () => {
    const waiting = scenario(['waiting']);
    await expect(waiting.result).resolves.toBeUndefined();
    expect(waiting.elapsed()).toBe(LIMITS.pickupMs);
    const running = scenario(['active']);
    await expect(running.result).resolves.toBeUndefined();
    expect(running.elapsed()).toBe(LIMITS.runningMs);
  });

  it('gives up at once on a failed job, and on a queue that cannot tell', async () => {
    for (const state of ['failed' as const, new Error('No handler registered for job')]) {
      const s = scenario([state]);
      await expect(s.result).resolves.toBeUndefined();
      expect(s.elapsed()).toBe(0);
    }
  });

  it('waits a little for the record of a finished job, then gives up', async () => {
    const late = scenario(['active', 'completed'], 3);
    await expect(late.result).resolves.toBe('pdf');
    const never = scenario(['active', 'completed']);
    await expect(never.result).resolves.toBeUndefined();
    expect(never.elapsed()).toBe(50 + LIMITS.settleMs);
  });

  it('enqueues once a job the queue does not know (lost in a restart), then waits for it', async () => {
    const s = scenario(['unknown', 'waiting', 'active'], 3);
    await expect(s.result).resolves.toBe('pdf');
    expect(s.enqueued).toEqual([0]);
    const lost = scenario(['unknown']);
    await expect(lost.result).resolves.toBeUndefined();
    expect(lost.enqueued).toEqual([0]);
  });

  it('gives up when the job cannot be enqueued', async () => {
    const result = awaitExport(
      {
        stored: async () => undefined,
        state: async () => 'unknown',
        enqueue: async () => {
          throw new Error('Redis is away');
        },
      },
      LIMITS,
    );
    await expect(result).resolves.toBeUndefined();
  });
});
