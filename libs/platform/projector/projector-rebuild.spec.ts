import type { DomainEvent } from '../domain/decider';
import type { SqliteEventStore } from '../eventstore/sqlite-event-store';
import type { ReadStore, Write } from '../readstore/read-store.port';
import type { SqliteReadStore } from '../readstore/sqlite-read-store';
import { type CountedLog, countedLog } from './counted-log.testing';
import { projection } from './projection';
import { Projector } from './projector';

type Counted = DomainEvent<'Counted', { key: string }>;

/** Counts per key: each event adds one to its key's document, which it reads first. */
const counts = projection<Counted>('counts', [{ collection: 'counts', fields: ['key'] }], {
  Counted: async (event, ctx) => {
    const { key } = event.data;
    const current = await ctx.get<{ id: string; key: string; n: number }>('counts', key);
    await ctx.put('counts', { id: key, key, n: (current?.n ?? 0) + 1 });
  },
});

describe('Projector.rebuild with commits in flight', () => {
  let log: CountedLog;
  let events: SqliteEventStore;
  let views: SqliteReadStore;

  beforeEach(async () => {
    log = await countedLog(60, 7, 3);
    ({ events, views } = log);
  });
  afterEach(() => log.dispose());

  /** Most commits of a rebuild handle seen on their way at once. */
  let mostInFlight = 0;

  /**
   * `views` whose rebuild handle runs `onCommit` before each commit, and delays every commit a little
   * (`delayMs` of the commit's number: a shorter delay lets a later commit land first, as MongoDB may).
   */
  function withCommitHook(
    onCommit: (n: number, writes: Write[]) => void,
    delayMs: (n: number) => number = () => 5,
  ): ReadStore {
    let commits = 0;
    let inFlight = 0;
    mostInFlight = 0;
    return new Proxy(views, {
      get(target, name) {
        if (name !== 'forRebuild') return Reflect.get(target, name, target);
        return (generation: number) => {
          const handle = target.forRebuild(generation);
          return new Proxy(handle, {
            get(inner, method) {
              const value = Reflect.get(inner, method, inner);
              if (method !== 'commit') return typeof value === 'function' ? value.bind(inner) : value;
              return async (writes: Write[], checkpoint?: unknown) => {
                const n = ++commits;
                onCommit(n, writes);
                mostInFlight = Math.max(mostInFlight, ++inFlight);
                try {
                  // Later batches are projected while this one is still on its way.
                  await new Promise((resolve) => setTimeout(resolve, delayMs(n)));
                  return await value.call(inner, writes, checkpoint);
                } finally {
                  inFlight--;
                }
              };
            },
          });
        };
      },
    });
  }

  it('reads writes still on their way and ends with what a projection from scratch gives', async () => {
    const live = new Projector(events, views, [counts]);
    await live.prepare();
    const sent: number[] = [];
    const rebuilding = new Projector(
      events,
      withCommitHook((_n, writes) => sent.push(writes.length)),
      [counts],
    );
    expect(await rebuilding.rebuild(undefined, { batchSize: 4 })).toBe(60);
    expect(sent.length).toBeGreaterThan(2);
    expect(mostInFlight).toBe(2);
    const docs = await views.all<{ id: string; n: number }>('counts');
    expect(docs.map(({ id, n }) => [id, n])).toEqual(
      ['k0', 'k1', 'k2', 'k3', 'k4', 'k5', 'k6'].map((key, i) => [key, i < 4 ? 9 : 8]),
    );
    expect(await views.getCheckpoint('projector')).toBe(60);
  });

  it('never lets an older write of a document land after a newer one of a commit sent later', async () => {
    // Written without being read, so each batch sends its own write of the same few documents.
    const latest = projection<Counted>('latest', [{ collection: 'latest', fields: ['key'] }], {
      Counted: async (event, ctx) => {
        const { key } = event.data;
        await ctx.put('latest', { id: key, key, position: event.position });
      },
    });
    // Odd commits are slow, even ones quick: sent together, the later one would land first.
    const rebuilding = new Projector(
      events,
      withCommitHook(
        () => {},
        (n) => (n % 2 === 1 ? 30 : 1),
      ),
      [latest],
    );
    await rebuilding.rebuild(undefined, { batchSize: 4 });
    const docs = await views.all<{ id: string; position: number }>('latest');
    const all = await events.readAll(0, 100);
    const last = new Map(all.map((e) => [(e.data as { key: string }).key, e.position]));
    expect(docs.map(({ id, position }) => [id, position])).toEqual(
      [...last].sort(([a], [b]) => (a < b ? -1 : 1)),
    );
  });

  it('fails when a commit fails, even with a later one in flight, and leaves the live views as they were', async () => {
    const before = await views.generation();
    const rebuilding = new Projector(
      events,
      withCommitHook((n) => {
        if (n === 3) throw new Error('disk full');
      }),
      [counts],
    );
    await expect(rebuilding.rebuild(undefined, { batchSize: 4 })).rejects.toThrow('disk full');
    expect(await views.generation()).toBe(before);
    expect(await views.all('counts')).toEqual([]);
  });
});
