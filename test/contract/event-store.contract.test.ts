import { join } from 'node:path';
import { EventStoreDbEventStore, type RecordedEvent, SqliteEventStore } from '@app/platform/eventstore';
import type { EventWriter } from '@app/platform/eventstore/event-writer';
import { StorageThread } from '@app/platform/threads/storage-thread';
import Database from 'better-sqlite3';
import { describeIf } from '../support/describe-if';
import { builtFile } from '../support/process-harness';
import { removeDir, tempDir } from '../support/temp-dir';
import { eventStoreContract, newEvent, streamName, waitFor } from './event-store.contract';

function sqliteTarget() {
  const dir = tempDir('event-store-');
  const path = join(dir, 'events.db');
  return {
    path,
    open: () => new SqliteEventStore({ path, pollIntervalMs: 20 }),
    isolated: true,
    flushesOnClose: true,
    atomicAcrossStreams: true,
    dispose: async () => removeDir(dir),
  };
}

/**
 * The standalone server's setting: appends handed to a storage thread, which commits them; reads here.
 * `onHandover` sees the size of each group of appends crossing to the thread.
 */
function storageThreadTarget(onHandover?: (appends: number) => void) {
  const script = builtFile('libs', 'composition', 'storage-worker.js');
  const dir = tempDir('event-store-thread-');
  return {
    open: () => {
      const thread = new StorageThread({ script, workerData: { storage: { dataDir: dir } } });
      const writer: EventWriter = {
        commit: (appends) => {
          onHandover?.(appends.length);
          return thread.writer.commit(appends);
        },
      };
      const store = new SqliteEventStore({ path: join(dir, 'events.sqlite'), pollIntervalMs: 20, writer });
      const close = store.close.bind(store);
      store.close = async () => {
        await close();
        await thread.close();
      };
      return store;
    },
    isolated: true,
    flushesOnClose: true,
    atomicAcrossStreams: true,
    dispose: async () => removeDir(dir),
  };
}

describe('SqliteEventStore', () => {
  eventStoreContract(sqliteTarget);

  describe('committing on a storage thread', () => {
    eventStoreContract(() => storageThreadTarget());

    it('hands a wave of appends over in groups of 8, which the thread commits in order', async () => {
      const groups: number[] = [];
      const target = storageThreadTarget((appends) => groups.push(appends));
      const store = target.open();
      try {
        const stream = streamName();
        const results = await Promise.all(
          Array.from({ length: 20 }, () => store.append(stream, [newEvent()], 'any')),
        );
        const revisions = Array.from({ length: 20 }, (_, i) => i);
        expect(groups).toEqual([8, 8, 4]);
        expect(results.map((result) => result.nextRevision)).toEqual(revisions);
        expect((await store.readStream(stream)).map((event) => event.revision)).toEqual(revisions);
      } finally {
        await store.close();
        await target.dispose();
      }
    });
  });

  it('refuses an event id already stored in another stream (more than the port promises)', async () => {
    const target = sqliteTarget();
    const store = target.open();
    try {
      const event = newEvent();
      const first = streamName();
      await store.append(first, [event], 'no_stream');
      const other = streamName();
      await expect(store.append(other, [event], 'any')).rejects.toThrow(
        `an event id is already stored in stream ${first}`,
      );
      expect(await store.readStream(other)).toEqual([]);
    } finally {
      await store.close();
      await target.dispose();
    }
  });

  it('stores large data deflated and small data as JSON text, and reads a log of text as it is', async () => {
    const target = sqliteTarget();
    const store = target.open();
    try {
      const stream = streamName();
      const large = { text: 'a page of prose, '.repeat(200) };
      await store.append(stream, [newEvent('Large', large), newEvent('Small', { title: 'a' })], 'no_stream');
      await store.close();
      const db = new Database(target.path);
      const stored = db.prepare('SELECT type, typeof(data) AS kind, length(data) AS bytes FROM events').all();
      expect(stored).toEqual([
        { type: 'Large', kind: 'blob', bytes: expect.any(Number) },
        { type: 'Small', kind: 'text', bytes: '{"title":"a"}'.length },
      ]);
      expect((stored[0] as { bytes: number }).bytes).toBeLessThan(JSON.stringify(large).length / 10);
      // A log written before data was packed holds large data as text.
      db.prepare("UPDATE events SET data = ? WHERE type = 'Large'").run(JSON.stringify(large));
      db.close();
      const reopened = target.open();
      expect((await reopened.readStream(stream)).map((event) => event.data)).toEqual([large, { title: 'a' }]);
      await reopened.close();
    } finally {
      await target.dispose();
    }
  });

  it('with types, leaves the other events out, unread, and reports progress past them', async () => {
    const target = sqliteTarget();
    const store = target.open();
    try {
      const stream = streamName();
      await store.append(stream, [newEvent('Other'), newEvent('Other'), newEvent('Other')], 'no_stream');
      const calls: { types: string[]; through?: number }[] = [];
      const subscription = store.subscribeAll(
        0,
        async (batch, through) => {
          calls.push({ types: batch.map((event) => event.type), through });
        },
        { types: ['Wanted'] },
      );
      await waitFor(() => calls.some((call) => call.through === 3), 2000);
      await store.append(stream, [newEvent('Wanted')], 2);
      await waitFor(() => calls.some((call) => call.types.includes('Wanted')), 2000);
      await subscription.close();
      expect(calls.flatMap((call) => call.types)).toEqual(['Wanted']);
      expect(calls.at(-1)?.through).toBe(4);
    } finally {
      await store.close();
      await target.dispose();
    }
  });

  it('opens a log kept with a table of stream revisions, drops it and reads revisions from the events', async () => {
    const target = sqliteTarget();
    const stream = streamName();
    try {
      const first = target.open();
      await first.append(stream, [newEvent(), newEvent()], 'no_stream');
      await first.close();
      const db = new Database(target.path);
      db.exec(`CREATE TABLE streams (name TEXT PRIMARY KEY, revision INTEGER NOT NULL) WITHOUT ROWID;
        INSERT INTO streams VALUES ('${stream}', 7)`);
      db.close();

      const store = target.open();
      await expect(store.append(stream, [newEvent()], 7)).rejects.toThrow(/revision/i);
      expect((await store.append(stream, [newEvent()], 1)).nextRevision).toBe(2);
      await store.close();
      const after = new Database(target.path, { readonly: true });
      const tables = after.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all();
      after.close();
      expect(tables).not.toContain('streams');
    } finally {
      await target.dispose();
    }
  });

  describe('sharing its file with another process', () => {
    let target: ReturnType<typeof sqliteTarget>;
    beforeEach(() => {
      target = sqliteTarget();
    });
    afterEach(() => target.dispose());

    it('delivers events appended through another connection, found by polling', async () => {
      const reader = target.open();
      const writer = target.open();
      const received: RecordedEvent[] = [];
      const subscription = reader.subscribeAll(0, async (batch) => {
        received.push(...batch);
      });
      try {
        const stream = streamName();
        await writer.append(stream, [newEvent(), newEvent()], 'no_stream');
        await waitFor(() => received.length === 2, 2000);
        expect(received.map((event) => [event.stream, event.revision])).toEqual([
          [stream, 0],
          [stream, 1],
        ]);
      } finally {
        await subscription.close();
        await Promise.all([reader.close(), writer.close()]);
      }
    });

    it('uses write-ahead logging so readers never block the writer', async () => {
      const store = target.open();
      await store.append(streamName(), [newEvent()], 'no_stream');
      await store.close();

      const db = new Database(target.path, { readonly: true });
      try {
        expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      } finally {
        db.close();
      }
    });
  });
});

const eventStoreUrl = process.env.EVENTSTORE_URL;

describeIf(Boolean(eventStoreUrl), 'EventStoreDbEventStore contract: EVENTSTORE_URL is not set')(
  'EventStoreDbEventStore',
  () => {
    eventStoreContract(() => ({
      open: () => new EventStoreDbEventStore({ url: eventStoreUrl ?? '' }),
      isolated: false,
      flushesOnClose: false,
      atomicAcrossStreams: false,
    }));
  },
);
