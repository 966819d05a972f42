import type { DomainEvent } from '../domain/decider';
import type { SqliteEventStore } from '../eventstore/sqlite-event-store';
import type { SqliteReadStore } from '../readstore/sqlite-read-store';
import { type CountedLog, countedLog } from './counted-log.testing';
import { type Projection, projection } from './projection';
import { CHECKPOINT, Projector } from './projector';

/** Counts per key: each event adds one to its key's document in `collection`. */
const counting = (name: string, collection: string, others: string[] = []) =>
  projection<DomainEvent<'Counted', { key: string }>>(
    name,
    [],
    {
      Counted: async (event, ctx) => {
        const { key } = event.data;
        const current = await ctx.get<{ id: string; n: number }>(collection, key);
        await ctx.put(collection, { id: key, n: (current?.n ?? 0) + 1 });
      },
    },
    [collection, ...others],
  );

/** A projection whose documents moved from `earlier` to `later`: it rebuilds once on views that hold the earlier. */
const moved = (earlier: string, later: string): Projection => ({
  ...counting('tallies', later, [earlier]),
  backfillWhen: { own: later, witnesses: [earlier] },
});

describe('Projector backfill of a projection added or moved on views that hold the log', () => {
  let log: CountedLog;
  let events: SqliteEventStore;
  let views: SqliteReadStore;

  beforeEach(async () => {
    log = await countedLog(20, 4, 3);
    ({ events, views } = log);
  });
  afterEach(() => log.dispose());

  async function run(projections: Projection[]): Promise<void> {
    const projector = new Projector(events, views, projections);
    await projector.start();
    await projector.waitFor(await events.headPosition());
    await projector.stop();
  }

  it('builds the moved projection from the log, empties where it was, and leaves the others as they were', async () => {
    // Before: the projection wrote `old_tallies`.
    await run([counting('counts', 'counts'), counting('tallies', 'old_tallies')]);
    const counts = await views.all('counts');
    expect(await views.all('old_tallies')).toHaveLength(4);
    const generation = await views.generation();

    await run([counting('counts', 'counts'), moved('old_tallies', 'tallies')]);
    expect(await views.generation()).toBeGreaterThan(generation);
    expect((await views.all('tallies')).map(({ id, n }) => ({ id, n }))).toEqual([
      { id: 'k0', n: 5 },
      { id: 'k1', n: 5 },
      { id: 'k2', n: 5 },
      { id: 'k3', n: 5 },
    ]);
    expect(await views.all('old_tallies')).toEqual([]);
    expect(await views.all('counts')).toEqual(counts);
    expect(await views.getCheckpoint(CHECKPOINT)).toBe(await events.headPosition());

    // Once moved, a start rebuilds nothing.
    const rebuilt = await views.generation();
    await run([counting('counts', 'counts'), moved('old_tallies', 'tallies')]);
    expect(await views.generation()).toBe(rebuilt);
  });

  it('rebuilds nothing on views that never held the earlier collection', async () => {
    await run([counting('counts', 'counts'), moved('old_tallies', 'tallies')]);
    const generation = await views.generation();
    expect(await views.all('tallies')).toHaveLength(4);
    await run([counting('counts', 'counts'), moved('old_tallies', 'tallies')]);
    expect(await views.generation()).toBe(generation);
  });
});
