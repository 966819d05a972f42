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

  it('passes writes of documents never read straight through', () => {
    const buffer = new RebuildBuffer(store);
    const writes = [put('audit', { id: 'e1' }), put('audit', { id: 'e2' })];
    expect(buffer.absorb(writes)).toEqual(writes);
    expect(buffer.drain()).toEqual([]);
  });

  it('holds documents that were read and answers later reads with their latest state', async () => {
    await store.commit([put('spaces', { id: 's1', title: 'a' })]);
    const buffer = new RebuildBuffer(store);
    expect(await buffer.reads.get('spaces', 's1')).toEqual({ id: 's1', title: 'a' });
    expect(buffer.absorb([put('spaces', { id: 's1', title: 'b' })])).toEqual([]);
    expect(buffer.absorb([put('spaces', { id: 's1', title: 'c' })])).toEqual([]);
    expect(await buffer.reads.get('spaces', 's1')).toEqual({ id: 's1', title: 'c' });
    expect(await store.get('spaces', 's1')).toEqual({ id: 's1', title: 'a' });
  });

  it('drains held writes once each, in collection and id order', async () => {
    const buffer = new RebuildBuffer(store);
    for (const id of ['b', 'a']) await buffer.reads.get('spaces', id);
    await buffer.reads.get('register', 'z');
    buffer.absorb([put('spaces', { id: 'b' }), put('register', { id: 'z' }), put('spaces', { id: 'a' })]);
    buffer.absorb([{ collection: 'spaces', id: 'b', doc: null }]);
    expect(buffer.drain()).toEqual([
      put('register', { id: 'z' }),
      put('spaces', { id: 'a' }),
      { collection: 'spaces', id: 'b', doc: null },
    ]);
    expect(buffer.drain()).toEqual([]);
  });

  it('evicts past its capacity what was not used since last passed over, writing only changed documents', async () => {
    const buffer = new RebuildBuffer(store, 2);
    await buffer.reads.get('spaces', 'changed');
    expect(buffer.absorb([put('spaces', { id: 'changed', n: 1 })])).toEqual([]);
    await buffer.reads.get('spaces', 'x');
    await buffer.reads.get('spaces', 'y');
    // `changed` was used since it was read: it gets a second chance and `x`, unchanged, goes unwritten.
    expect(buffer.absorb([])).toEqual([]);
    expect(await buffer.reads.get('spaces', 'y')).toBeNull();
    await buffer.reads.get('spaces', 'z');
    // `changed` is passed over a second time unused, and its write goes out.
    expect(buffer.absorb([])).toEqual([put('spaces', { id: 'changed', n: 1 })]);
  });

  it('writes held documents before a find, so the store answers with them', async () => {
    await store.ensureIndexes([{ collection: 'spaces', fields: ['org'] }]);
    await store.commit([put('spaces', { id: 's1', org: 'o' })]);
    const buffer = new RebuildBuffer(store);
    await buffer.reads.get('spaces', 's1');
    buffer.absorb([put('spaces', { id: 's1', org: 'p' })]);
    const page = await buffer.reads.find('spaces', { where: { org: 'p' }, limit: 10 });
    expect(page.items).toEqual([{ id: 's1', org: 'p' }]);
    expect(buffer.drain()).toEqual([]);
  });

  it('lets the store prepare a collection (its deferred indexes) before it answers a query on it', async () => {
    const prepared: string[] = [];
    const buffer = new RebuildBuffer(store, undefined, async (collection) => {
      prepared.push(collection);
    });
    await buffer.reads.get('spaces', 's1');
    await buffer.reads.find('spaces', { where: { org: 'o' }, limit: 10 });
    expect(prepared).toEqual(['spaces']);
  });
});
