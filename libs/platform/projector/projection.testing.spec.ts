import type { DomainEvent } from '../domain/decider';
import type { Doc } from '../readstore/read-store.port';
import { projection } from './projection';
import { givenProjection, inLog, recorded } from './projection.testing';

interface CountDoc extends Doc {
  n: number;
}

type CountEvent = DomainEvent<'Counted', { key: string }> | DomainEvent<'Reset', { key: string }>;

/** Counts events per key: reads its document before each write. */
const counts = projection<CountEvent>('counts', [{ collection: 'counts', fields: ['key'] }], {
  Counted: async (e, ctx) => {
    const current = await ctx.get<CountDoc>('counts', e.data.key);
    await ctx.put('counts', { id: e.data.key, n: (current?.n ?? 0) + 1 });
  },
  Reset: async (e, ctx) => {
    await ctx.delete('counts', e.data.key);
  },
});

describe('recorded and inLog', () => {
  it('number events in the order given: positions, revisions per stream, ids and times from the position', () => {
    const a = recorded('Counted', { key: 'k' }, { stream: 'one' });
    const b = recorded('Counted', { key: 'k' }, { stream: 'two' });
    const c = recorded('Counted', { key: 'k' }, { stream: 'one', metadata: { correlationId: 'mine' } });
    const log = inLog([c, b, a, b]);
    expect(log.map((e) => [e.stream, e.position, e.revision])).toEqual([
      ['one', 1, 0],
      ['two', 2, 0],
      ['one', 3, 1],
      ['two', 4, 1],
    ]);
    expect(log[0]).toEqual({
      id: '00000000-0000-4000-8000-000000000001',
      type: 'Counted',
      data: { key: 'k' },
      stream: 'one',
      revision: 0,
      position: 1,
      metadata: {
        schemaVersion: 1,
        occurredAt: '2026-01-01T00:00:01.000Z',
        actor: { source: 'system' },
        correlationId: 'mine',
        causationId: null,
      },
    });
  });

  it('keeps what an event sets itself, and numbers on from an explicit position', () => {
    const log = inLog([
      recorded('Counted', {}, { position: 10, revision: 5, id: 'fixed' }),
      recorded('Counted', {}),
    ]);
    expect(log.map((e) => [e.id, e.position, e.revision])).toEqual([
      ['fixed', 10, 5],
      ['00000000-0000-4000-8000-000000000011', 11, 6],
    ]);
  });
});

describe('givenProjection', () => {
  it('applies events through a context whose reads see earlier writes, and strips _pos unless asked', async () => {
    const first = recorded('Counted', { key: 'a' });
    const other = recorded('Counted', { key: 'b' });
    const scenario = givenProjection(counts).given(first, first, other, recorded('Ignored', {}));
    await scenario.thenDocuments('counts', [
      { id: 'b', n: 1 },
      { id: 'a', n: 2 },
    ]);
    await scenario.thenDocuments(
      'counts',
      [
        { id: 'a', n: 2, _pos: 2 },
        { id: 'b', n: 1, _pos: 3 },
      ],
      { withPos: true },
    );
    // The same within one commit (the unit of work's overlay).
    await givenProjection(counts, { batchSize: 3 })
      .given(first, first, other)
      .thenDocuments('counts', [
        { id: 'a', n: 2 },
        { id: 'b', n: 1 },
      ]);
  });

  it('passes the replay and rebuild checks for a projection guarded per document', async () => {
    const scenario = givenProjection(counts).given(
      recorded('Counted', { key: 'a' }),
      recorded('Counted', { key: 'a' }),
      recorded('Reset', { key: 'a' }),
      recorded('Counted', { key: 'a' }),
    );
    await scenario.thenDocuments('counts', [{ id: 'a', n: 1 }]);
    await scenario.thenReplayChangesNothing();
    await scenario.thenRebuildMatches();
  });

  it('refuses events out of log order', () => {
    const late = recorded('Counted', { key: 'a' }, { position: 5 });
    const early = recorded('Counted', { key: 'a' }, { position: 4 });
    expect(() => givenProjection(counts).given(late, early)).toThrow(/out of log order/);
  });

  it('fails when the projection writes a collection it does not declare', async () => {
    const leaky = projection<DomainEvent<'Counted', object>>(
      'leaky',
      [{ collection: 'mine', fields: ['x'] }],
      {
        Counted: async (_e, ctx) => {
          await ctx.put('theirs', { id: 'x' });
        },
      },
    );
    await expect(givenProjection(leaky).given(recorded('Counted', {})).documents('mine')).rejects.toThrow(
      /leaky writes theirs, which is not among its collections/,
    );
  });

  it('fails the replay check for entries numbered by a counter the projection keeps', async () => {
    const numbered = projection<DomainEvent<'Happened', object>>(
      'numbered',
      [{ collection: 'entries', fields: ['n'] }],
      {
        Happened: async (_e, ctx) => {
          const counter = await ctx.get<CountDoc>('entries', 'counter');
          const n = (counter?.n ?? 0) + 1;
          await ctx.put('entries', { id: `entry-${n}`, n });
          await ctx.put('entries', { id: 'counter', n });
        },
      },
    );
    const scenario = givenProjection(numbered).given(recorded('Happened', {}), recorded('Happened', {}));
    await scenario.thenRebuildMatches();
    await expect(scenario.thenReplayChangesNothing()).rejects.toThrow();
  });

  it('fails the rebuild check for a projection that changes a document it read without putting it', async () => {
    const sloppy = projection<DomainEvent<'Counted', object>>(
      'sloppy',
      [{ collection: 'counts', fields: ['n'] }],
      {
        Counted: async (_e, ctx) => {
          const doc = await ctx.get<CountDoc>('counts', 'a');
          if (doc) doc.n += 1;
          else await ctx.put('counts', { id: 'a', n: 1 });
        },
      },
    );
    const scenario = givenProjection(sloppy).given(recorded('Counted', {}), recorded('Counted', {}));
    await scenario.thenDocuments('counts', [{ id: 'a', n: 1 }]);
    await expect(scenario.thenRebuildMatches()).rejects.toThrow();
  });
});
