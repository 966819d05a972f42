import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newEventId } from '../eventstore/event-id';
import { CheckpointBeyondHeadError, type NewEvent } from '../eventstore/event-store.port';
import { SqliteEventStore } from '../eventstore/sqlite-event-store';
import type { ReadStore } from '../readstore/read-store.port';
import { MeteredEventStore } from './metered-event-store';
import { Metrics } from './metrics';
import { checkReadiness, storageProbes } from './readiness';

const event = (): NewEvent => ({
  id: newEventId(),
  type: 'ThingHappened',
  data: {},
  metadata: {
    schemaVersion: 1,
    occurredAt: '2026-01-01T00:00:00.000Z',
    actor: { source: 'system' },
    correlationId: 'c',
    causationId: null,
  },
});

/** Views whose projector checkpoint is `checkpoint`. */
const viewsAt = (checkpoint: number) => ({ getCheckpoint: async () => checkpoint }) as unknown as ReadStore;

describe('readiness', () => {
  it('is ready when every probe answers, with what each reports', async () => {
    expect(await checkReadiness({ a: async () => ({ n: 1 }), b: async () => ({}) })).toEqual({
      status: 'ready',
      checks: { a: { status: 'up', n: 1 }, b: { status: 'up' } },
    });
  });

  it('is unavailable while a probe fails or hangs, and keeps the message of its error to the log', async () => {
    const logged: string[] = [];
    const readiness = await checkReadiness(
      {
        up: async () => ({}),
        failing: async () => {
          throw new Error('connect ECONNREFUSED 10.0.0.7:2113');
        },
        hung: () => new Promise(() => {}),
      },
      (name) => logged.push(name),
      50,
    );
    expect(readiness).toEqual({
      status: 'unavailable',
      checks: {
        up: { status: 'up' },
        failing: { status: 'down', reason: 'error' },
        hung: { status: 'down', reason: 'timeout' },
      },
    });
    expect(logged.sort()).toEqual(['failing', 'hung']);
  });

  it('has failed when a probe met a failure for good, which it names, whatever else is down', async () => {
    const readiness = await checkReadiness({
      failing: async () => {
        throw new Error('refused');
      },
      log: async () => {
        throw new CheckpointBeyondHeadError(9, 4);
      },
    });
    expect(readiness).toEqual({
      status: 'failed',
      checks: {
        failing: { status: 'down', reason: 'error' },
        log: {
          status: 'failed',
          reason:
            'a checkpoint says to go on after position 9, but the log ends at 4: it was kept for another log',
        },
      },
    });
  });

  describe('of the storage ports', () => {
    let dir: string;
    let events: MeteredEventStore;
    let stderr: jest.SpyInstance;

    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'readiness-'));
      const log = new SqliteEventStore({ path: join(dir, 'events.sqlite'), pollIntervalMs: 20 });
      events = new MeteredEventStore(log, new Metrics());
      stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    });

    afterEach(async () => {
      stderr.mockRestore();
      await events.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('fails the read store whose checkpoint is beyond the head of the log: views built from another log', async () => {
      const { position } = await events.append('s-1', [event(), event()], 'no_stream');

      const ahead = await checkReadiness(storageProbes({ events, views: viewsAt(position + 3) }));
      const caughtUp = await checkReadiness(storageProbes({ events, views: viewsAt(position) }));

      expect(ahead).toMatchObject({
        status: 'failed',
        checks: {
          eventStore: { status: 'up', headPosition: position },
          readStore: {
            status: 'failed',
            reason: `a checkpoint says to go on after position ${position + 3}, but the log ends at ${position}: it was kept for another log`,
          },
        },
      });
      expect(caughtUp).toMatchObject({ status: 'ready', checks: { readStore: { checkpoint: position } } });
    });

    it('fails the event store while a subscription of this process is stopped for good, until it is closed', async () => {
      const subscription = events.subscribeAll(7, async () => {});
      for (let i = 0; i < 100 && !subscription.failure(); i++) await new Promise((r) => setTimeout(r, 10));

      const failed = await checkReadiness(storageProbes({ events }));
      await subscription.close();
      const closed = await checkReadiness(storageProbes({ events }));

      expect(subscription.failure()).toBeInstanceOf(CheckpointBeyondHeadError);
      expect(failed).toEqual({
        status: 'failed',
        checks: {
          eventStore: {
            status: 'failed',
            reason:
              'a checkpoint says to go on after position 7, but the log ends at 0: it was kept for another log',
          },
        },
      });
      expect(closed).toEqual({ status: 'ready', checks: { eventStore: { status: 'up', headPosition: 0 } } });
    });
  });
});
