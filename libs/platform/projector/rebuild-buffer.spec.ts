import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Doc, Write } from '../readstore/read-store.port';
import { SqliteReadStore } from '../readstore/sqlite-read-store';
import { RebuildBuffer } from './rebuild-buffer';

const put = (collection: string, doc: Doc): Write => ({ collection, id: doc.id, doc });

describe('RebuildBuffer', () => {
  let dir: string;
  let store: SqliteReadStore;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rebuild-buffer-'));
    store = new SqliteReadStore({ path: join(dir, 'views.sqlite') });
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('passes writes of documents never read straight through, each with the position of its event', async () => {
    const buffer = new RebuildBuffer(store);
    await buffer.at(1).put('audit', { id: 'e1' });
    await buffer.at(2).put('audit', { id: 'e2' });
    expect(buffer.endBatch()).toEqual([
      put('audit', { id: 'e1', _pos: 1 }),
      put('audit', { id: 'e2', _pos: 2 }),
    ]);
    expect(buffer.drain()).toEqual([]);
  });

  it('answers reads within a batch with the batch’s own writes', async () => {
    const buffer = new RebuildBuffer(store);
    const ctx = buffer.at(3);
    await ctx.put('audit', { id: 'e1', n: 1 });
    await ctx.put('audit', { id: 'e1', n: 2 });
    expect(await ctx.get('audit', 'e1')).toEqual({ id: 'e1', n: 2, _pos: 3 });
    await ctx.delete('audit', 'e2');
    expect(await ctx.get('audit', 'e2')).toBeNull();
    // Written before the collection was first read: both go out, in order, so the later one wins.
    expect(buffer.endBatch()).toEqual([
      put('audit', { id: 'e1', n: 1, _pos: 3 }),
      put('audit', { id: 'e1', n: 2, _pos: 3 }),
    ]);
    // Once read, a collection's writes are held.
    expect(buffer.drain()).toEqual([[{ collection: 'audit', id: 'e2', doc: null }]]);
  });

  it('holds the documents written to a collection once it has been read', async () => {
    const buffer = new RebuildBuffer(store);
    await buffer.at(1).get('spaces', 's0');
    await buffer.at(2).put('spaces', { id: 's1', title: 'new' });
    expect(buffer.endBatch()).toEqual([]);
    expect(await buffer.at(3).get('spaces', 's1')).toEqual({ id: 's1', title: 'new', _pos: 2 });
    expect(buffer.drain()).toEqual([[put('spaces', { id: 's1', title: 'new', _pos: 2 })]]);
  });

  it('answers reads from writes handed out until they have landed, then from the store', async () => {
    const buffer = new RebuildBuffer(store, 1);
    const ctx = buffer.at(1);
    await ctx.get('spaces', 'a');
    await ctx.put('spaces', { id: 'a', n: 1 });
    expect(buffer.endBatch()).toEqual([]);
    // `a` was used: it gets a second chance while `b` goes; then `a` goes, changed, so written out.
    await ctx.get('spaces', 'b');
    expect(buffer.endBatch()).toEqual([]);
    await ctx.get('spaces', 'c');
    const evicted = buffer.endBatch();
    expect(evicted).toEqual([put('spaces', { id: 'a', n: 1, _pos: 1 })]);
    // Not in the store yet: answered from the writes on their way.
    expect(await buffer.at(2).get('spaces', 'a')).toEqual({ id: 'a', n: 1, _pos: 1 });
    expect(await store.get('spaces', 'a')).toBeNull();
    await store.commit([put('spaces', { id: 'a', n: 2, _pos: 1 })]);
    buffer.landed(evicted);
    buffer.endBatch();
    expect(await buffer.at(3).get('spaces', 'a')).toEqual({ id: 'a', n: 2, _pos: 1 });
  });

  it('reads again after a drain what it held before', async () => {
    const buffer = new RebuildBuffer(store);
    for (const id of ['a', 'b', 'c']) await buffer.at(1).put('register', { id, n: 1 });
    expect(await buffer.at(1).get('register', 'missing')).toBeNull();
    const [part] = buffer.drain();
    await store.commit(part);
    buffer.landed(part);
    for (const id of ['c', 'b', 'a'])
      expect(await buffer.at(2).get('register', id)).toEqual({ id, n: 1, _pos: 1 });
  });

  it('drains in parts of the size asked for', async () => {
    const buffer = new RebuildBuffer(store);
    await buffer.at(1).get('spaces', 'x');
    for (const id of ['c', 'a', 'b']) await buffer.at(1).put('spaces', { id });
    expect(buffer.drain(2).map((part) => part.map((write) => write.id))).toEqual([['a', 'b'], ['c']]);
  });

  it('holds documents that were read and answers later reads with their latest state', async () => {
    await store.commit([put('spaces', { id: 's1', title: 'a' })]);
    const buffer = new RebuildBuffer(store);
    expect(await buffer.at(1).get('spaces', 's1')).toEqual({ id: 's1', title: 'a' });
    await buffer.at(2).put('spaces', { id: 's1', title: 'b' });
    expect(buffer.endBatch()).toEqual([]);
    await buffer.at(3).put('spaces', { id: 's1', title: 'c' });
    expect(buffer.endBatch()).toEqual([]);
    expect(await buffer.at(4).get('spaces', 's1')).toEqual({ id: 's1', title: 'c', _pos: 3 });
    expect(await store.get('spaces', 's1')).toEqual({ id: 's1', title: 'a' });
  });

  it('reads nothing from the store for collections declared empty', async () => {
    await store.commit([put('spaces', { id: 's1', title: 'stored before' })]);
    const buffer = new RebuildBuffer(store);
    buffer.startEmpty(['spaces']);
    expect(await buffer.at(1).get('spaces', 's1')).toBeNull();
  });

  it('drains held writes once each, in collection and id order', async () => {
    const buffer = new RebuildBuffer(store);
    const ctx = buffer.at(1);
    for (const id of ['b', 'a']) await ctx.get('spaces', id);
    await ctx.get('register', 'z');
    await ctx.put('spaces', { id: 'b' });
    await ctx.put('register', { id: 'z' });
    await ctx.put('spaces', { id: 'a' });
    expect(buffer.endBatch()).toEqual([]);
    await buffer.at(2).delete('spaces', 'b');
    expect(buffer.drain()).toEqual([
      [
        put('register', { id: 'z', _pos: 1 }),
        put('spaces', { id: 'a', _pos: 1 }),
        { collection: 'spaces', id: 'b', doc: null },
      ],
    ]);
    expect(buffer.drain()).toEqual([]);
  });

  it('evicts past its capacity what was not used since last passed over, writing only changed documents', async () => {
    const buffer = new RebuildBuffer(store, 2);
    const ctx = buffer.at(1);
    await ctx.get('spaces', 'changed');
    await ctx.put('spaces', { id: 'changed', n: 1 });
    expect(buffer.endBatch()).toEqual([]);
    await ctx.get('spaces', 'x');
    await ctx.get('spaces', 'y');
    // `changed` was used since it was read: it gets a second chance and `x`, unchanged, goes unwritten.
    expect(buffer.endBatch()).toEqual([]);
    expect(await ctx.get('spaces', 'y')).toBeNull();
    await ctx.get('spaces', 'z');
    // `changed` is passed over a second time unused, and its write goes out.
    expect(buffer.endBatch()).toEqual([put('spaces', { id: 'changed', n: 1, _pos: 1 })]);
    // Evicted documents are read from the store again.
    await store.commit([put('spaces', { id: 'changed', n: 1, _pos: 1 })]);
    expect(await ctx.get('spaces', 'changed')).toEqual({ id: 'changed', n: 1, _pos: 1 });
  });

  it('writes held documents and the batch before a find, so the store answers with them', async () => {
    await store.ensureIndexes([{ collection: 'spaces', fields: ['org'] }]);
    await store.commit([put('spaces', { id: 's1', org: 'o' })]);
    const buffer = new RebuildBuffer(store);
    const ctx = buffer.at(5);
    await ctx.get('spaces', 's1');
    await ctx.put('spaces', { id: 's1', org: 'p' });
    await ctx.put('spaces', { id: 's2', org: 'p' });
    const found = await ctx.find('spaces', { org: 'p' });
    expect(found).toEqual([
      { id: 's1', org: 'p', _pos: 5 },
      { id: 's2', org: 'p', _pos: 5 },
    ]);
    expect(buffer.endBatch()).toEqual([]);
    expect(buffer.drain()).toEqual([]);
  });

  it('lets the store prepare a collection (its deferred indexes) before it answers a query on it', async () => {
    const prepared: string[] = [];
    const buffer = new RebuildBuffer(store, undefined, async (collection) => {
      prepared.push(collection);
    });
    await buffer.at(1).get('spaces', 's1');
    await buffer.at(1).find('spaces', { org: 'o' });
    expect(prepared).toEqual(['spaces']);
  });
});
