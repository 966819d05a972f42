import type { RecordedEvent } from '../eventstore/event-store.port';
import type { Doc, ReadStore, Write } from '../readstore/read-store.port';
import { committedMessage } from '../threads/storage-thread';
import { UnitOfWork } from './unit-of-work';

/** A store holding `docs` (by collection and id) that answers what a unit of work reads. */
function storeOf(docs: Record<string, Doc[]>): Pick<ReadStore, 'get' | 'find'> {
  return {
    get: async <T extends Doc>(collection: string, id: string) =>
      (docs[collection]?.find((doc) => doc.id === id) ?? null) as T | null,
    find: async <T extends Doc>(collection: string) => {
      const items = (docs[collection] ?? []) as T[];
      return { items, count: items.length };
    },
  };
}

const at = (position: number) => ({ position }) as RecordedEvent;

describe('UnitOfWork', () => {
  const stored = { spaces: [{ id: 's1', title: 'old', _pos: 3 }] };

  it('marks writes that create a document the store did not hold, and only those', async () => {
    const uow = new UnitOfWork(storeOf(stored));
    const ctx = uow.forEvent(at(10));
    await ctx.put('spaces', { id: 's1', title: 'new' });
    await ctx.put('audit', { id: 'e1' });
    await ctx.get('spaces', 's2');
    await ctx.put('spaces', { id: 's2', title: 'made' });
    await ctx.delete('audit', 'e0');
    expect(uow.writes().map(({ collection, id, created }) => [collection, id, created])).toEqual([
      ['spaces', 's1', undefined],
      ['audit', 'e1', true],
      ['spaces', 's2', true],
      ['audit', 'e0', undefined],
    ]);
  });

  it('writes out what it holds past its spill weight, reads it back, and guards replays as before', async () => {
    const docs: Record<string, Doc[]> = { spaces: [{ id: 's1', title: 'old', _pos: 3 }] };
    const spilled: Write[][] = [];
    const store = storeOf(docs);
    const uow = new UnitOfWork(store, {
      maxWeight: 200,
      write: async (writes) => {
        spilled.push(writes);
        for (const { collection, id, doc } of writes) {
          const list = (docs[collection] ?? []).filter((d) => d.id !== id);
          docs[collection] = doc ? [...list, doc] : list;
        }
      },
    });
    const ctx = uow.forEvent(at(10));
    await ctx.put('spaces', { id: 's1', title: 'new' });
    await ctx.put('pages', { id: 'p1', text: 'x'.repeat(300) });
    expect(spilled.map((writes) => writes.map((w) => [w.id, w.created]))).toEqual([
      [
        ['s1', undefined],
        ['p1', true],
      ],
    ]);
    // Read back from the store; a later event's write lands, a replay of this one does not.
    expect(await ctx.get('pages', 'p1')).toMatchObject({ text: 'x'.repeat(300), _pos: 10 });
    await ctx.put('spaces', { id: 's1', title: 'again' });
    await uow.forEvent(at(11)).put('pages', { id: 'p1', text: 'short' });
    expect(uow.writes().map((w) => [w.id, w.doc?._pos, w.created])).toEqual([['p1', 11, undefined]]);
  });

  it('skips a write the stored document already includes (a replay after a crash)', async () => {
    const uow = new UnitOfWork(storeOf(stored));
    await uow.forEvent(at(3)).put('spaces', { id: 's1', title: 'again' });
    expect(uow.writes()).toEqual([]);
  });

  it('writes a self-guarded document without reading the stored one (its projection guards replays)', async () => {
    const reads: string[] = [];
    const store = storeOf(stored);
    const get: typeof store.get = (collection, id) => {
      reads.push(id);
      return store.get(collection, id);
    };
    const uow = new UnitOfWork({ ...store, get });
    const ctx = uow.forEvent(at(3));
    await ctx.put('spaces', { id: 's1', title: 'again' }, { selfGuarded: true });
    await ctx.delete('spaces', 's2', { selfGuarded: true });
    expect(reads).toEqual([]);
    expect(uow.writes()).toEqual([
      { collection: 'spaces', id: 's1', doc: { id: 's1', title: 'again', _pos: 3 }, blind: true },
      { collection: 'spaces', id: 's2', doc: null, blind: true },
    ]);
    // A serving thread that kept one forgets it rather than being sent it.
    expect(
      committedMessage({ position: 3, changed: new Set(['spaces']), writes: uow.writes() }),
    ).toMatchObject({
      writes: [
        ['spaces', 's1', null],
        ['spaces', 's2', null],
      ],
    });
  });
});

describe('committedMessage', () => {
  it('sends the documents a serving thread may keep, not those the commit created', async () => {
    const uow = new UnitOfWork(storeOf({ spaces: [{ id: 's1', _pos: 1 }] }));
    const ctx = uow.forEvent(at(5));
    await ctx.put('spaces', { id: 's1', title: 'new' });
    await ctx.put('audit', { id: 'e1', action: 'space.updated' });
    await ctx.delete('spaces', 's9');
    const message = committedMessage({
      position: 5,
      changed: new Set(['spaces', 'audit']),
      writes: uow.writes(),
    });
    expect(message).toEqual({
      type: 'committed',
      position: 5,
      changed: ['spaces', 'audit'],
      writes: [
        ['spaces', 's1', JSON.stringify({ id: 's1', title: 'new', _pos: 5 })],
        ['spaces', 's9', null],
      ],
    });
  });
});
