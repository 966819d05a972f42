import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventMetadata } from '../eventstore/event-store.port';
import { SqliteEventStore } from '../eventstore/sqlite-event-store';
import { SqliteReadStore } from '../readstore/sqlite-read-store';

const metadata: EventMetadata = {
  schemaVersion: 1,
  occurredAt: '2026-01-01T00:00:00.000Z',
  actor: { source: 'system' } as EventMetadata['actor'],
  correlationId: 'c',
  causationId: null,
};

export interface CountedLog {
  events: SqliteEventStore;
  views: SqliteReadStore;
  dispose(): Promise<void>;
}

/**
 * For the projector's specs: a log in a temporary directory holding `count` events `Counted`, the i-th
 * with key `k{i % keys}` in stream `s{i % streams}`, and empty views beside it.
 */
export async function countedLog(count: number, keys: number, streams: number): Promise<CountedLog> {
  const dir = mkdtempSync(join(tmpdir(), 'projector-'));
  const events = new SqliteEventStore({ path: join(dir, 'events.sqlite') });
  const views = new SqliteReadStore({ path: join(dir, 'views.sqlite') });
  for (let i = 0; i < count; i++) {
    const event = { id: `e${i}`, type: 'Counted', data: { key: `k${i % keys}` }, metadata };
    await events.append(`s${i % streams}`, [event], 'any');
  }
  return {
    events,
    views,
    dispose: async () => {
      await events.close();
      await views.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
