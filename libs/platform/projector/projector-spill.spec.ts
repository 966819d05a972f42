import type { DomainEvent } from '../domain/decider';
import { type CountedLog, countedLog } from './counted-log.testing';
import { projection } from './projection';
import { type CommittedViews, Projector } from './projector';

type Counted = DomainEvent<'Counted', { key: string }>;

/** Counts per key, and a note per event: each event reads its key's count first. */
const counts = projection<Counted>('counts', [], {
  Counted: async (event, ctx) => {
    const { key } = event.data;
    const current = await ctx.get<{ id: string; n: number }>('counts', key);
    await ctx.put('counts', { id: key, n: (current?.n ?? 0) + 1 });
    await ctx.put('notes', { id: `n${event.position}`, text: 'x'.repeat(100) });
  },
});

describe('Projector with a batch outgrowing its spill weight', () => {
  let log: CountedLog;

  beforeEach(async () => {
    log = await countedLog(60, 7, 3);
  });
  afterEach(() => log.dispose());

  it('writes the batch out as it goes, announced without moving the checkpoint, and ends as if it had not', async () => {
    const { events, views } = log;
    const projector = new Projector(events, views, [counts], { spillWeight: 500 });
    const commits: CommittedViews[] = [];
    projector.onCommit((committed) => commits.push(committed));
    await projector.start();
    const head = await events.headPosition();
    await projector.waitFor(head);
    await projector.stop();

    const all = (await views.all<{ id: string; n: number }>('counts' as never)).map((d) => [d.id, d.n]);
    expect(all).toEqual(Array.from({ length: 7 }, (_, k) => [`k${k}`, k < 60 % 7 ? 9 : 8]));
    expect(await views.all('notes' as never)).toHaveLength(60);
    expect(await views.getCheckpoint('projector')).toBe(head);
    // Spilled commits come first, at the position the views had; the batch's own moves it to its end.
    const spilled = commits.filter((c) => c.position === 0);
    expect(spilled.length).toBeGreaterThan(1);
    expect(spilled.every((c) => c.writes.length > 0)).toBe(true);
    expect(commits.at(-1)?.position).toBe(head);
  });
});
