import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CachedReadStore } from './cached-read-store';
import { CheckpointConflictError, type Doc, type ReadStore } from './read-store.port';
import { SqliteReadStore } from './sqlite-read-store';

/** Counts the reads that reach the store behind the cache; `hold` delays their answers until released. */
function counting(store: ReadStore) {
  let reads = 0;
  let held: Promise<void> | undefined;
  const counted = Object.create(store) as ReadStore;
  counted.get = async <T extends Doc>(collection: string, id: string) => {
    reads++;
    const doc = await store.get<T>(collection, id);
    await held;
    return doc;
  };
  const hold = () => {
    let release = () => {};
    held = new Promise((resolve) => {
      release = resolve;
    });
    return () => {
      held = undefined;
      release();
    };
  };
  return { store: counted, reads: () => reads, hold };
}

describe('CachedReadStore', () => {
  let dir: string;
  let sqlite: SqliteReadStore;
  let reads: () => number;
  let hold: () => () => void;
  let cache: CachedReadStore;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cached-read-store-'));
    sqlite = new SqliteReadStore({ path: join(dir, 'views.sqlite') });
    const counted = counting(sqlite);
    reads = counted.reads;
    hold = counted.hold;
    cache = new CachedReadStore(counted.store, 3);
  });
  afterEach(async () => {
    await cache.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Stores `docs` and reads each through the cache, so that it keeps them. */
  async function kept(collection: string, docs: Doc[]): Promise<void> {
    await sqlite.commit(docs.map((doc) => ({ collection, id: doc.id, doc })));
    for (const doc of docs) await cache.get(collection, doc.id);
  }

  it('reads a document from the store once, an absent one each time', async () => {
    await sqlite.commit([{ collection: 'spaces', id: 'a', doc: { id: 'a', title: 'A' } }]);
    expect(await cache.get('spaces', 'a')).toEqual({ id: 'a', title: 'A' });
    expect(await cache.get('spaces', 'a')).toEqual({ id: 'a', title: 'A' });
    expect(reads()).toBe(1);
    expect(await cache.get('spaces', 'none')).toBeNull();
    await sqlite.commit([{ collection: 'spaces', id: 'none', doc: { id: 'none' } }]);
    expect(await cache.get('spaces', 'none')).toEqual({ id: 'none' });
    expect(reads()).toBe(3);
  });

  it('hands out frozen documents, nested values included', async () => {
    await sqlite.commit([
      { collection: 'spaces', id: 'a', doc: { id: 'a', tags: ['x'], owner: { id: 'u' } } },
    ]);
    const doc = (await cache.get('spaces', 'a')) as Doc & { tags: string[]; owner: { id: string } };
    expect(Object.isFrozen(doc)).toBe(true);
    expect(Object.isFrozen(doc.tags)).toBe(true);
    expect(Object.isFrozen(doc.owner)).toBe(true);
  });

  it('updates kept documents on commit, deletions included, without reading them again', async () => {
    await kept('spaces', [
      { id: 'a', title: 'A' },
      { id: 'b', title: 'B' },
    ]);
    await cache.commit(
      [
        { collection: 'spaces', id: 'a', doc: { id: 'a', title: 'A2' } },
        { collection: 'spaces', id: 'b', doc: null },
        { collection: 'spaces', id: 'c', doc: { id: 'c', title: 'C' } },
      ],
      { name: 'projector', position: 1 },
    );
    expect(await cache.get('spaces', 'a')).toEqual({ id: 'a', title: 'A2' });
    expect(await cache.get('spaces', 'b')).toBeNull();
    expect(reads()).toBe(2);
    // A document created through the cache is read once it is wanted.
    expect(await cache.get('spaces', 'c')).toEqual({ id: 'c', title: 'C' });
    expect(reads()).toBe(3);
    // What the cache answers is what the store holds.
    expect(await sqlite.get('spaces', 'a')).toEqual({ id: 'a', title: 'A2' });
    expect(await sqlite.get('spaces', 'b')).toBeNull();
  });

  it('learns another thread’s commits to kept documents, and reads one deleted there again once wanted', async () => {
    await kept('members', [
      { id: 'm', role: 'read' },
      { id: 'n', role: 'read' },
    ]);
    // The other thread changes `m`, deletes `n`, then creates `n` again: creations are not reported.
    await sqlite.commit([
      { collection: 'members', id: 'm', doc: { id: 'm', role: 'admin' } },
      { collection: 'members', id: 'n', doc: null },
    ]);
    cache.learn([
      { collection: 'members', id: 'm', json: JSON.stringify({ id: 'm', role: 'admin' }) },
      { collection: 'members', id: 'n', json: null },
    ]);
    await sqlite.commit([{ collection: 'members', id: 'n', doc: { id: 'n', role: 'edit' } }]);
    expect(await cache.get('members', 'm')).toEqual({ id: 'm', role: 'admin' });
    expect(reads()).toBe(2);
    expect(await cache.get('members', 'n')).toEqual({ id: 'n', role: 'edit' });
    expect(reads()).toBe(3);
  });

  it('does not keep a read that raced with a commit', async () => {
    await sqlite.commit([{ collection: 'spaces', id: 'a', doc: { id: 'a', title: 'old' } }]);
    await cache.generation();
    // The read takes the old document from the store, the commit lands, then the read answers.
    const release = hold();
    const racing = cache.get('spaces', 'a');
    await cache.commit([{ collection: 'spaces', id: 'a', doc: { id: 'a', title: 'new' } }]);
    release();
    expect(await racing).toEqual({ id: 'a', title: 'old' });
    expect(await cache.get('spaces', 'a')).toEqual({ id: 'a', title: 'new' });
  });

  it('forgets everything when a commit fails, since the store may hold something else', async () => {
    await cache.commit([{ collection: 'spaces', id: 'a', doc: { id: 'a', title: 'A' } }], {
      name: 'projector',
      position: 1,
    });
    await cache.get('spaces', 'a');
    // Another writer moved the views on.
    await sqlite.commit([{ collection: 'spaces', id: 'a', doc: { id: 'a', title: 'other' } }], {
      name: 'projector',
      position: 2,
      expected: 1,
    });
    await expect(
      cache.commit([{ collection: 'spaces', id: 'a', doc: { id: 'a', title: 'mine' } }], {
        name: 'projector',
        position: 2,
        expected: 1,
      }),
    ).rejects.toBeInstanceOf(CheckpointConflictError);
    expect(await cache.get('spaces', 'a')).toEqual({ id: 'a', title: 'other' });
  });

  it('forgets everything once it sees another live generation', async () => {
    await sqlite.commit([{ collection: 'spaces', id: 'a', doc: { id: 'a', title: 'A' } }]);
    await cache.get('spaces', 'a');
    const generation = await sqlite.createGeneration();
    await sqlite
      .forGeneration(generation)
      .commit([{ collection: 'spaces', id: 'a', doc: { id: 'a', title: 'R' } }], {
        name: 'projector',
        position: 1,
      });
    await sqlite.promote(generation, { checkpoint: 'projector' });
    expect(await cache.generation()).toBe(generation);
    expect(await cache.get('spaces', 'a')).toEqual({ id: 'a', title: 'R' });
  });

  it('starts over when full rather than growing', async () => {
    await sqlite.commit(['a', 'b', 'c', 'd'].map((id) => ({ collection: 'spaces', id, doc: { id } })));
    for (const id of ['a', 'b', 'c', 'd']) await cache.get('spaces', id);
    expect(reads()).toBe(4);
    await cache.get('spaces', 'd');
    await cache.get('spaces', 'a');
    expect(reads()).toBe(5);
  });

  it('starts over when what it keeps would weigh too much, however few the documents', async () => {
    const text = 'x'.repeat(4_000);
    await sqlite.commit(['a', 'b', 'c'].map((id) => ({ collection: 'objects', id, doc: { id, text } })));
    const counted = counting(sqlite);
    const bounded = new CachedReadStore(counted.store, 1000, 10_000);
    for (const id of ['a', 'b']) await bounded.get('objects', id);
    await bounded.get('objects', 'a');
    expect(counted.reads()).toBe(2);
    await bounded.get('objects', 'c');
    await bounded.get('objects', 'a');
    expect(counted.reads()).toBe(4);
  });
});
