import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Doc, FindQuery, ReadStore, Scalar } from '@app/platform/readstore';
import { CheckpointConflictError, MongoReadStore, SqliteReadStore } from '@app/platform/readstore';
import { CachedReadStore } from '@app/platform/readstore/cached-read-store';
import { MongoClient } from 'mongodb';
import { describeIf, MONGO_WIRE } from '../support/describe-if';
import { removeDir, tempDir } from '../support/temp-dir';

interface Backend {
  /** Opens a store over fresh, empty storage; `reopen` opens another store over the same storage. */
  open(): Promise<{ store: ReadStore; reopen: () => Promise<ReadStore> }>;
  /** Whether a failed commit leaves no write behind (the port only asks for it where possible). */
  atomicCommit: boolean;
}

/** Reads every page of a query, checking the total on each page. */
async function readAllPages(store: ReadStore, collection: string, query: FindQuery, total: number) {
  const ids: string[] = [];
  let after: FindQuery['after'];
  for (let page = 0; page < 100; page++) {
    const result = await store.find(collection, { ...query, after });
    expect(result.count).toBe(total);
    expect(result.items.length).toBeLessThanOrEqual(query.limit);
    ids.push(...result.items.map((doc) => doc.id));
    if (!result.next) return ids;
    expect(result.items.length).toBe(query.limit);
    after = result.next;
  }
  throw new Error('pagination did not terminate');
}

/** Where a sort value's type ranks: missing/null, then numbers, strings and booleans (as BSON orders them). */
const TYPE_RANK = { number: 1, string: 2, boolean: 3 } as Record<string, number>;

/** The expected order: missing/null first ascending (last descending), ties by id in the same direction. */
function expectedOrder(docs: Doc[], field: string, direction: 'asc' | 'desc'): string[] {
  const rank = (doc: Doc): [number, Scalar] => {
    const value = (doc[field] ?? null) as Scalar;
    return value === null ? [0, null] : [TYPE_RANK[typeof value], value];
  };
  const compare = (a: Doc, b: Doc): number => {
    const [ra, va] = rank(a);
    const [rb, vb] = rank(b);
    if (ra !== rb) return ra - rb;
    if (va !== null && vb !== null && va !== vb)
      return (va as number | string) < (vb as number | string) ? -1 : 1;
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  };
  const sorted = [...docs].sort(compare).map((doc) => doc.id);
  return direction === 'asc' ? sorted : sorted.reverse();
}

/** Polls until `check` holds: handles of another process follow a promote within a bounded delay. */
async function eventually(check: () => Promise<boolean>, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

const put = (collection: string, doc: Doc) => ({ collection, id: doc.id, doc });
const del = (collection: string, id: string) => ({ collection, id, doc: null });

function readStoreContract(name: string, backend: Backend): void {
  describe(`ReadStore contract: ${name}`, () => {
    let store: ReadStore;
    let reopen: () => Promise<ReadStore>;
    const opened: ReadStore[] = [];

    beforeEach(async () => {
      ({ store, reopen } = await backend.open());
      opened.push(store);
    });

    afterEach(async () => {
      for (const s of opened.splice(0)) await s.close();
    });

    it('puts, gets, replaces and deletes documents', async () => {
      await store.commit([put('pages', { id: 'p1', title: 'One', tags: ['a'], meta: { n: 1 }, _pos: 3 })]);
      expect(await store.get('pages', 'p1')).toEqual({
        id: 'p1',
        title: 'One',
        tags: ['a'],
        meta: { n: 1 },
        _pos: 3,
      });

      await store.commit([put('pages', { id: 'p1', subtitle: 'Replaced', _pos: 4 })]);
      expect(await store.get('pages', 'p1')).toEqual({ id: 'p1', subtitle: 'Replaced', _pos: 4 });

      await store.commit([del('pages', 'p1'), del('pages', 'never-existed')]);
      expect(await store.get('pages', 'p1')).toBeNull();
    });

    it('drops fields set to undefined, as JSON does, at every depth', async () => {
      await store.commit([
        put('pages', { id: 'p1', gone: undefined, kept: null, nested: { gone: undefined, n: 1 } }),
      ]);
      const stored = await store.get('pages', 'p1');
      expect(stored).toStrictEqual({ id: 'p1', kept: null, nested: { n: 1 } });
      expect(await store.find('pages', { where: { gone: null }, limit: 5 })).toMatchObject({ count: 1 });
    });

    it('refuses, writing nothing, keys with "." or a leading "$", non-finite numbers and arrays in arrays', async () => {
      const refused: [Doc, RegExp][] = [
        [{ id: 'x', 'a.b': 1 }, /pages\/x cannot be stored: a\.b is a key/],
        [{ id: 'x', nested: { $set: 1 } }, /nested\.\$set is a key/],
        [{ id: 'x', list: [{ ok: 1 }, { n: Number.NaN }] }, /list\[1\]\.n is NaN/],
        [{ id: 'x', n: Number.POSITIVE_INFINITY }, /n is Infinity/],
        [{ id: 'x', grid: [[1, 2]] }, /grid\[0\] is an array in an array/],
      ];
      for (const [doc, message] of refused) {
        const commit = store.commit([put('pages', { id: 'fine' }), put('pages', doc)], {
          name: 'p',
          position: 1,
        });
        await expect(commit).rejects.toThrow(message);
      }
      expect(await store.get('pages', 'fine')).toBeNull();
      expect(await store.getCheckpoint('p')).toBe(0);
      await store.commit([put('pages', { id: 'ok', 'a-b': 'x.y', $: undefined, n: -0, list: [[]].flat() })]);
      expect(await store.get('pages', 'ok')).toMatchObject({ id: 'ok', 'a-b': 'x.y' });
    });

    it('returns null for a missing id or an unknown collection', async () => {
      await store.commit([put('pages', { id: 'p1' })]);
      expect(await store.get('pages', 'p2')).toBeNull();
      expect(await store.get('spaces', 'p1')).toBeNull();
    });

    it('keeps collections apart', async () => {
      await store.commit([
        put('pages', { id: 'x', kind: 'page' }),
        put('spaces', { id: 'x', kind: 'space' }),
      ]);
      expect(await store.get('pages', 'x')).toEqual({ id: 'x', kind: 'page' });
      expect(await store.get('spaces', 'x')).toEqual({ id: 'x', kind: 'space' });
      expect((await store.find('pages', { limit: 10 })).count).toBe(1);
    });

    it('applies the writes of one commit in order', async () => {
      await store.commit([
        put('pages', { id: 'a', v: 1 }),
        put('pages', { id: 'a', v: 2 }),
        put('pages', { id: 'b', v: 1 }),
        del('pages', 'b'),
        del('pages', 'c'),
        put('pages', { id: 'c', v: 3 }),
      ]);
      expect(await store.all('pages')).toEqual([
        { id: 'a', v: 2 },
        { id: 'c', v: 3 },
      ]);
    });

    it('finds by equality on strings, numbers, several fields and id', async () => {
      await store.ensureIndexes([{ collection: 'pages', fields: ['space', 'rank'] }]);
      await store.commit([
        put('pages', { id: 'p1', space: 's1', rank: 1 }),
        put('pages', { id: 'p2', space: 's1', rank: 2 }),
        put('pages', { id: 'p3', space: 's2', rank: 1 }),
        put('pages', { id: 'p4', space: 's1', rank: '1' }),
      ]);
      const ids = async (where: Record<string, Scalar>) =>
        (await store.find('pages', { where, limit: 10 })).items.map((doc) => doc.id);

      expect(await ids({ space: 's1' })).toEqual(['p1', 'p2', 'p4']);
      expect(await ids({ rank: 1 })).toEqual(['p1', 'p3']);
      expect(await ids({ rank: '1' })).toEqual(['p4']);
      expect(await ids({ space: 's1', rank: 2 })).toEqual(['p2']);
      expect(await ids({ space: 's3' })).toEqual([]);
      expect(await ids({ id: 'p3' })).toEqual(['p3']);
    });

    it('finds a replaced document under its new field values only, whichever fields changed', async () => {
      await store.ensureIndexes([{ collection: 'pages', fields: ['space', 'flag', 'n'] }]);
      await store.commit([put('pages', { id: 'p', space: 'a', flag: true, n: 1, title: 'one' })]);
      await store.commit([put('pages', { id: 'p', space: 'b', flag: false, n: 1, title: 'two' })]);
      await store.commit([put('pages', { id: 'p', space: 'b', flag: false, n: 1, title: 'three' })]);
      const find = async (where: Record<string, Scalar>) => {
        const page = await store.find('pages', { where, orderBy: 'n', limit: 5 });
        return { count: page.count, titles: page.items.map((doc) => doc.title) };
      };
      expect(await find({ space: 'a' })).toEqual({ count: 0, titles: [] });
      expect(await find({ flag: true })).toEqual({ count: 0, titles: [] });
      expect(await find({ space: 'b', flag: false })).toEqual({ count: 1, titles: ['three'] });
      await store.commit([put('pages', { id: 'p', space: 'b', flag: false, title: 'four' })]);
      expect(await find({ n: 1 })).toEqual({ count: 0, titles: [] });
      expect(await find({ n: null })).toEqual({ count: 1, titles: ['four'] });
    });

    it('stores a write marked created, found by its indexed fields, and later replaces it', async () => {
      await store.ensureIndexes([{ collection: 'pages', fields: ['space'] }]);
      await store.commit([{ ...put('pages', { id: 'n', space: 'a', title: 'new' }), created: true }]);
      await store.commit([put('pages', { id: 'n', space: 'b', title: 'moved' })]);
      expect(await store.get('pages', 'n')).toEqual({ id: 'n', space: 'b', title: 'moved' });
      expect((await store.find('pages', { where: { space: 'a' }, limit: 5 })).count).toBe(0);
      expect((await store.find('pages', { where: { space: 'b' }, limit: 5 })).count).toBe(1);
    });

    it('matches null against a missing or null field, and only there', async () => {
      await store.ensureIndexes([{ collection: 'pages', fields: ['parent'] }]);
      await store.commit([
        put('pages', { id: 'missing' }),
        put('pages', { id: 'null', parent: null }),
        put('pages', { id: 'set', parent: 'p' }),
        put('pages', { id: 'empty', parent: '' }),
        put('pages', { id: 'zero', parent: 0 }),
        put('pages', { id: 'false', parent: false }),
      ]);
      const page = await store.find('pages', { where: { parent: null }, limit: 10 });
      expect(page.items.map((doc) => doc.id)).toEqual(['missing', 'null']);
      expect(page.count).toBe(2);
    });

    it('compares booleans as booleans, distinct from 0 and 1', async () => {
      await store.ensureIndexes([{ collection: 'flags', fields: ['on'] }]);
      await store.commit([
        put('flags', { id: 't', on: true }),
        put('flags', { id: 'f', on: false }),
        put('flags', { id: 'one', on: 1 }),
        put('flags', { id: 'zero', on: 0 }),
        put('flags', { id: 'none' }),
      ]);
      const ids = async (on: Scalar) =>
        (await store.find('flags', { where: { on }, limit: 10 })).items.map((doc) => doc.id);

      expect(await ids(true)).toEqual(['t']);
      expect(await ids(false)).toEqual(['f']);
      expect(await ids(1)).toEqual(['one']);
      expect(await ids(0)).toEqual(['zero']);
      expect(await store.get('flags', 't')).toEqual({ id: 't', on: true });
    });

    it('orders by id by default, ascending and descending', async () => {
      await store.commit(['b', 'c', 'a'].map((id) => put('pages', { id })));
      const asc = await store.find('pages', { limit: 10 });
      const desc = await store.find('pages', { direction: 'desc', limit: 10 });
      expect(asc.items.map((doc) => doc.id)).toEqual(['a', 'b', 'c']);
      expect(desc.items.map((doc) => doc.id)).toEqual(['c', 'b', 'a']);
      expect(asc.next).toBeUndefined();
    });

    it('orders numbers numerically and strings lexically, ties by id in the same direction', async () => {
      await store.ensureIndexes([
        { collection: 'pages', fields: ['n'] },
        { collection: 'pages', fields: ['title'] },
      ]);
      await store.commit([
        put('pages', { id: 'd', n: 10, title: 'beta' }),
        put('pages', { id: 'a', n: 2, title: 'alpha' }),
        put('pages', { id: 'c', n: 2, title: 'beta' }),
        put('pages', { id: 'b', n: 1.5, title: 'Zed' }),
      ]);
      const ids = async (orderBy: string, direction: 'asc' | 'desc') =>
        (await store.find('pages', { orderBy, direction, limit: 10 })).items.map((doc) => doc.id);

      expect(await ids('n', 'asc')).toEqual(['b', 'a', 'c', 'd']);
      expect(await ids('n', 'desc')).toEqual(['d', 'c', 'a', 'b']);
      expect(await ids('title', 'asc')).toEqual(['b', 'a', 'c', 'd']);
      expect(await ids('title', 'desc')).toEqual(['d', 'c', 'a', 'b']);
    });

    it('pages with a keyset cursor: every matching item exactly once, in order, with the total count', async () => {
      await store.ensureIndexes([{ collection: 'pages', fields: ['space', 'position'] }]);
      const docs: Doc[] = [];
      for (let i = 0; i < 37; i++) {
        const id = `p${String((i * 7) % 37).padStart(2, '0')}`;
        docs.push({ id, space: i % 4 === 0 ? 'other' : 'main', position: i % 5 });
      }
      await store.commit(docs.map((doc) => put('pages', doc)));
      const main = docs.filter((doc) => doc.space === 'main');

      for (const direction of ['asc', 'desc'] as const) {
        for (const limit of [1, 4, 27, 28, 100]) {
          const query: FindQuery = { where: { space: 'main' }, orderBy: 'position', direction, limit };
          const ids = await readAllPages(store, 'pages', query, main.length);
          expect(ids).toEqual(expectedOrder(main, 'position', direction));
        }
        const byId = await readAllPages(store, 'pages', { direction, limit: 5 }, docs.length);
        expect(byId).toEqual(expectedOrder(docs, 'id', direction));
      }
    });

    it('pages across documents without the sort value (first ascending, last descending)', async () => {
      await store.ensureIndexes([{ collection: 'pages', fields: ['title'] }]);
      const docs: Doc[] = [];
      for (let i = 0; i < 20; i++) {
        const id = `p${String(i).padStart(2, '0')}`;
        if (i % 3 === 0) docs.push({ id });
        else if (i % 5 === 0) docs.push({ id, title: null });
        else docs.push({ id, title: `t${i % 4}` });
      }
      await store.commit(docs.map((doc) => put('pages', doc)));

      for (const direction of ['asc', 'desc'] as const) {
        for (const limit of [1, 3, 7]) {
          const ids = await readAllPages(store, 'pages', { orderBy: 'title', direction, limit }, docs.length);
          expect(ids).toEqual(expectedOrder(docs, 'title', direction));
        }
      }
    });

    it('pages across sort values of different types: numbers, then strings, then booleans', async () => {
      await store.ensureIndexes([{ collection: 'pages', fields: ['rank'] }]);
      const values: Scalar[] = [3, 'b', true, null, -1, 'a', false, 2.5, '10', 10, 'b', 3];
      const docs: Doc[] = values.map((rank, i) => ({ id: `p${String(i).padStart(2, '0')}`, rank }));
      await store.commit(docs.map((doc) => put('pages', doc)));

      for (const direction of ['asc', 'desc'] as const) {
        for (const limit of [1, 2, 5]) {
          const ids = await readAllPages(store, 'pages', { orderBy: 'rank', direction, limit }, docs.length);
          expect(ids).toEqual(expectedOrder(docs, 'rank', direction));
        }
      }
    });

    it('returns the cursor of the last item only when more items exist', async () => {
      await store.commit([
        put('pages', { id: 'a', n: 3 }),
        put('pages', { id: 'b', n: 1 }),
        put('pages', { id: 'c', n: 2 }),
      ]);
      const first = await store.find('pages', { orderBy: 'n', limit: 2 });
      expect(first.items.map((doc) => doc.id)).toEqual(['b', 'c']);
      expect(first.next).toEqual({ value: 2, id: 'c' });
      const second = await store.find('pages', { orderBy: 'n', after: first.next, limit: 2 });
      expect(second.items.map((doc) => doc.id)).toEqual(['a']);
      expect(second.next).toBeUndefined();
      const exact = await store.find('pages', { orderBy: 'n', limit: 3 });
      expect(exact.next).toBeUndefined();
    });

    it('with limit 0 returns only the count', async () => {
      await store.commit([
        put('pages', { id: 'a', s: 'x' }),
        put('pages', { id: 'b', s: 'x' }),
        put('pages', { id: 'c' }),
      ]);
      const page = await store.find('pages', { where: { s: 'x' }, limit: 0 });
      expect(page).toEqual({ items: [], count: 2 });
    });

    it.each([
      ['', false],
      [', in a clustered collection', true],
    ])(
      'finds by id prefix: the ids starting with it, in id order, counted, paged and filtered%s',
      async (_, clustered) => {
        if (clustered) await store.ensureIndexes([{ collection: 'terms', fields: ['id'], clustered: true }]);
        const ids = [
          's:a:2',
          's:a:1',
          's:a',
          's:ab:1',
          's:a;',
          's:a:\u00e9',
          's:a:\u{1f600}',
          't:a:1',
          's:b:1',
        ];
        await store.commit(ids.map((id, i) => put('terms', { id, n: i % 2 })));
        const found = await store.find('terms', { idPrefix: 's:a:', limit: 10 });
        expect(found.items.map((doc) => doc.id)).toEqual(['s:a:1', 's:a:2', 's:a:\u00e9', 's:a:\u{1f600}']);
        expect(found.count).toBe(4);
        const first = await store.find('terms', { idPrefix: 's:a:', limit: 2 });
        expect(first.items.map((doc) => doc.id)).toEqual(['s:a:1', 's:a:2']);
        const rest = await store.find('terms', { idPrefix: 's:a:', after: first.next, limit: 5 });
        expect(rest.items.map((doc) => doc.id)).toEqual(['s:a:\u00e9', 's:a:\u{1f600}']);
        const even = await store.find('terms', { idPrefix: 's:a:', where: { n: 0 }, limit: 10 });
        expect(even.items.map((doc) => doc.id)).toEqual(['s:a:2', 's:a:\u{1f600}']);
        expect(await store.find('terms', { idPrefix: 's:a:', limit: 0 })).toEqual({ items: [], count: 4 });
        expect(await store.find('terms', { idPrefix: 'z:', limit: 5 })).toEqual({ items: [], count: 0 });
        await expect(store.find('terms', { idPrefix: 's:\u00e9', limit: 5 })).rejects.toThrow(/ASCII/);
        await store.commit([put('terms', { id: 's:a:1', n: 9 }), del('terms', 's:a:2')]);
        expect(await store.get('terms', 's:a:1')).toEqual({ id: 's:a:1', n: 9 });
        expect(await store.get('terms', 's:a:2')).toBeNull();
      },
    );

    it('finds nothing in an unknown collection', async () => {
      expect(await store.find('nothing', { where: { a: 1 }, orderBy: 'b', limit: 5 })).toEqual({
        items: [],
        count: 0,
      });
    });

    it('records the checkpoint with the writes; 0 when absent', async () => {
      expect(await store.getCheckpoint('pages-projection')).toBe(0);
      await store.commit([put('pages', { id: 'a' }), put('spaces', { id: 's' })], {
        name: 'pages-projection',
        position: 41,
      });
      expect(await store.getCheckpoint('pages-projection')).toBe(41);
      expect(await store.get('pages', 'a')).toEqual({ id: 'a' });
      expect(await store.get('spaces', 's')).toEqual({ id: 's' });

      await store.commit([], { name: 'pages-projection', position: 42 });
      await store.commit([put('pages', { id: 'b' })]);
      expect(await store.getCheckpoint('pages-projection')).toBe(42);
      expect(await store.getCheckpoint('other')).toBe(0);
    });

    it('does not advance the checkpoint when a write fails', async () => {
      await store.commit([put('pages', { id: 'a', v: 1 })], { name: 'proj', position: 1 });
      const cyclic: Doc = { id: 'bad' };
      cyclic.self = cyclic;

      await expect(
        store.commit([put('pages', { id: 'a', v: 2 }), put('pages', cyclic)], { name: 'proj', position: 2 }),
      ).rejects.toThrow();
      expect(await store.getCheckpoint('proj')).toBe(1);
      expect(await store.get('pages', 'bad')).toBeNull();
      if (backend.atomicCommit) expect(await store.get('pages', 'a')).toEqual({ id: 'a', v: 1 });
    });

    it('lists all documents of a collection in id order, and the non-empty collections', async () => {
      await store.commit([
        put('spaces', { id: 's2' }),
        put('pages', { id: 'b' }),
        put('pages', { id: 'a' }),
        put('pages', { id: 'c' }),
        put('drafts', { id: 'd' }),
      ]);
      await store.commit([del('drafts', 'd')]);
      expect((await store.all('pages')).map((doc) => doc.id)).toEqual(['a', 'b', 'c']);
      expect(await store.all('nothing')).toEqual([]);
      expect(await store.collections()).toEqual(['pages', 'spaces']);
    });

    it('clear() drops every document and checkpoint and leaves the store usable', async () => {
      await store.ensureIndexes([{ collection: 'pages', fields: ['s'] }]);
      await store.commit([put('pages', { id: 'a', s: 'x' }), put('spaces', { id: 'b' })], {
        name: 'p',
        position: 9,
      });
      await store.clear();
      expect(await store.collections()).toEqual([]);
      expect(await store.get('pages', 'a')).toBeNull();
      expect(await store.getCheckpoint('p')).toBe(0);
      expect((await store.find('pages', { where: { s: 'x' }, limit: 5 })).count).toBe(0);

      await store.commit([put('pages', { id: 'c', s: 'x' })], { name: 'p', position: 1 });
      expect((await store.find('pages', { where: { s: 'x' }, limit: 5 })).items).toEqual([
        { id: 'c', s: 'x' },
      ]);
      expect(await store.getCheckpoint('p')).toBe(1);
    });

    it('ensureIndexes is idempotent', async () => {
      const spec = [{ collection: 'pages', fields: ['space', 'position'] }];
      await store.ensureIndexes(spec);
      await store.ensureIndexes(spec);
      await store.commit([put('pages', { id: 'a', space: 's', position: 1 })]);
      expect(
        (await store.find('pages', { where: { space: 's' }, orderBy: 'position', limit: 5 })).count,
      ).toBe(1);
    });

    it('answers queries alike before and after deferred indexes are built, with documents replaced meanwhile', async () => {
      const spec = [{ collection: 'pages', fields: ['space', 'position'] }];
      await store.ensureIndexes(spec, { deferred: true });
      await store.commit([
        put('pages', { id: 'a', space: 's', position: 2 }),
        put('pages', { id: 'b', space: 's', position: 1 }),
        put('pages', { id: 'c', space: 't', position: 3 }),
      ]);
      await store.commit([put('pages', { id: 'c', space: 's', position: 0 })]);
      const query = { where: { space: 's' }, orderBy: 'position', limit: 5 } as const;
      const before = await store.find('pages', query);
      expect(before.items.map((doc) => doc.id)).toEqual(['c', 'b', 'a']);
      await store.ensureIndexes(spec);
      await store.commit([put('pages', { id: 'a', space: 't', position: 2 })]);
      const after = await store.find('pages', query);
      expect(after.items.map((doc) => doc.id)).toEqual(['c', 'b']);
      expect(after.count).toBe(2);
    });

    it('commits with an expected checkpoint only when it matches (compare-and-set)', async () => {
      await store.commit([put('pages', { id: 'a' })], { name: 'proj', position: 3, expected: 0 });
      const stale = store.commit([put('pages', { id: 'b' })], { name: 'proj', position: 4, expected: 2 });
      await expect(stale).rejects.toBeInstanceOf(CheckpointConflictError);
      await expect(stale).rejects.toMatchObject({ checkpoint: 'proj', expected: 2, actual: 3 });
      expect(await store.get('pages', 'b')).toBeNull();
      expect(await store.getCheckpoint('proj')).toBe(3);
      await store.commit([put('pages', { id: 'b' })], { name: 'proj', position: 4, expected: 3 });
      expect(await store.getCheckpoint('proj')).toBe(4);
    });

    it('keeps checkpoint names as data, dots and dollar signs included', async () => {
      await store.commit([], { name: 'reaction:a.b', position: 2 });
      await store.commit([], { name: '$x%2E', position: 3, expected: 0 });
      expect(await store.getCheckpoint('reaction:a.b')).toBe(2);
      expect(await store.getCheckpoint('reaction:a')).toBe(0);
      expect(await store.getCheckpoint('$x%2E')).toBe(3);
      expect(await store.getCheckpoint('$x.')).toBe(0);
    });

    describe('generations', () => {
      it('refuses a commit that names a generation no longer live, through any handle, and moves nothing', async () => {
        await store.commit([], { name: 'proj', position: 2, expected: 0, generation: 1 });
        const other = await reopen();
        opened.push(other);
        const generation = await store.createGeneration();
        await store.forGeneration(generation).commit([], { name: 'proj', position: 2 });
        expect(await store.promote(generation, { checkpoint: 'proj' })).toBe(true);

        for (const handle of [store, other]) {
          const late = handle.commit([put('pages', { id: 'late' })], {
            name: 'proj',
            position: 3,
            expected: 2,
            generation: 1,
          });
          await expect(late).rejects.toBeInstanceOf(CheckpointConflictError);
        }
        expect(await other.getCheckpoint('proj')).toBe(2);
        expect(await other.get('pages', 'late')).toBeNull();
        await other.commit([], { name: 'proj', position: 3, expected: 2, generation });
        expect(await store.getCheckpoint('proj')).toBe(3);
      });

      it('starts at 1 and hands out ever higher new generations', async () => {
        expect(await store.generation()).toBe(1);
        const first = await store.createGeneration();
        const second = await store.createGeneration();
        expect(first).toBeGreaterThan(1);
        expect(second).toBeGreaterThan(first);
        expect(await store.generation()).toBe(1);
      });

      it('a generation handle reads and writes apart from the live generation, checkpoints included', async () => {
        await store.commit([put('pages', { id: 'live' })], { name: 'proj', position: 5 });
        const next = store.forGeneration(await store.createGeneration());
        await next.ensureIndexes([{ collection: 'pages', fields: ['s'] }]);
        await next.commit([put('pages', { id: 'new', s: 'x' }), put('drafts', { id: 'd' })], {
          name: 'proj',
          position: 2,
        });

        expect(await store.get('pages', 'new')).toBeNull();
        expect(await next.get('pages', 'live')).toBeNull();
        expect(await next.get('pages', 'new')).toEqual({ id: 'new', s: 'x' });
        expect((await next.find('pages', { where: { s: 'x' }, limit: 5 })).count).toBe(1);
        expect(await store.collections()).toEqual(['pages']);
        expect(await next.collections()).toEqual(['drafts', 'pages']);
        expect(await store.getCheckpoint('proj')).toBe(5);
        expect(await next.getCheckpoint('proj')).toBe(2);

        await next.clear();
        expect(await next.collections()).toEqual([]);
        expect(await store.get('pages', 'live')).toEqual({ id: 'live' });
      });

      it('copies collections into a generation with the checkpoint they are at', async () => {
        await store.commit(
          [
            put('pages', { id: 'a', _pos: 1 }),
            put('pages', { id: 'b', _pos: 2 }),
            put('spaces', { id: 's' }),
          ],
          { name: 'proj', position: 4 },
        );
        const generation = await store.createGeneration();
        const next = store.forGeneration(generation);
        await next.commit([put('pages', { id: 'stale' })]);

        expect(await store.copyCollections(generation, ['pages', 'nothing'], 'proj')).toBe(4);
        expect(await next.all('pages')).toEqual([
          { id: 'a', _pos: 1 },
          { id: 'b', _pos: 2 },
        ]);
        expect(await next.collections()).toEqual(['pages']);
        expect(await next.getCheckpoint('proj')).toBe(0);
      });

      it('promote switches live reads and writes to the new generation and drops the old one', async () => {
        await store.commit([put('pages', { id: 'old' })], { name: 'proj', position: 7 });
        await store.commit([], { name: 'reaction:r', position: 6 });
        const generation = await store.createGeneration();
        const next = store.forGeneration(generation);
        await next.commit([put('pages', { id: 'new' })], { name: 'proj', position: 7 });

        expect(await store.promote(generation)).toBe(true);
        expect(await store.generation()).toBe(generation);
        expect(await store.get('pages', 'old')).toBeNull();
        expect(await store.get('pages', 'new')).toEqual({ id: 'new' });
        expect(await store.collections()).toEqual(['pages']);
        expect(await store.getCheckpoint('proj')).toBe(7);
        // A checkpoint the new generation did not set (a reaction's) carries over.
        expect(await store.getCheckpoint('reaction:r')).toBe(6);

        await store.commit([put('pages', { id: 'later' })], { name: 'proj', position: 8, expected: 7 });
        expect(await next.get('pages', 'later')).toEqual({ id: 'later' });
        const retired = store.forGeneration(1);
        // MongoDB drops it after a grace period for other processes, SQLite at once.
        await eventually(async () => (await retired.all('pages')).length === 0);
        await expect(retired.commit([put('pages', { id: 'x' })])).rejects.toThrow(/retired/);
        await expect(store.promote(1)).rejects.toThrow(/older than the live generation/);
        expect(await store.promote(generation)).toBe(true);
      });

      it('promote with a checkpoint refuses a generation behind the live one', async () => {
        await store.commit([], { name: 'proj', position: 10 });
        const generation = await store.createGeneration();
        const next = store.forGeneration(generation);
        await next.commit([put('pages', { id: 'a' })], { name: 'proj', position: 8 });

        expect(await store.promote(generation, { checkpoint: 'proj' })).toBe(false);
        expect(await store.generation()).toBe(1);
        expect(await store.get('pages', 'a')).toBeNull();

        await next.commit([], { name: 'proj', position: 10 });
        expect(await store.promote(generation, { checkpoint: 'proj' })).toBe(true);
        expect(await store.get('pages', 'a')).toEqual({ id: 'a' });
      });

      it('another open store over the same storage follows a promote', async () => {
        await store.ensureIndexes([{ collection: 'pages', fields: ['n'] }]);
        await store.commit([put('pages', { id: 'a', n: 1 })], { name: 'proj', position: 1 });
        const other = await reopen();
        opened.push(other);
        expect(await other.get('pages', 'a')).toEqual({ id: 'a', n: 1 });
        expect((await other.find('pages', { where: { n: 1 }, limit: 5 })).count).toBe(1);

        const generation = await store.createGeneration();
        const next = store.forGeneration(generation);
        await next.ensureIndexes([{ collection: 'pages', fields: ['n'] }]);
        await next.commit([put('pages', { id: 'a', n: 2 }), put('pages', { id: 'b', n: 2 })], {
          name: 'proj',
          position: 2,
        });
        expect(await other.get('pages', 'a')).toEqual({ id: 'a', n: 1 });

        expect(await store.promote(generation, { checkpoint: 'proj' })).toBe(true);
        await eventually(async () => (await other.get('pages', 'a'))?.n === 2);
        expect(await other.generation()).toBe(generation);
        expect((await other.find('pages', { where: { n: 2 }, limit: 5 })).count).toBe(2);
        expect(await other.getCheckpoint('proj')).toBe(2);

        // Its compare-and-set commit notices that the views moved; a plain commit lands in the new generation.
        await expect(
          other.commit([put('pages', { id: 'c' })], { name: 'proj', position: 3, expected: 1 }),
        ).rejects.toBeInstanceOf(CheckpointConflictError);
        await other.commit([put('pages', { id: 'c' })], { name: 'proj', position: 3, expected: 2 });
        expect(await store.get('pages', 'c')).toEqual({ id: 'c' });
        expect(await store.getCheckpoint('proj')).toBe(3);
      });
    });

    it('keeps data and checkpoints across close and reopen', async () => {
      await store.commit([put('pages', { id: 'a', title: 'kept' })], { name: 'proj', position: 7 });
      await store.close();
      const again = await reopen();
      opened.push(again);
      expect(await again.get('pages', 'a')).toEqual({ id: 'a', title: 'kept' });
      expect(await again.getCheckpoint('proj')).toBe(7);
    });
  });
}

const tempDirs: string[] = [];
afterAll(() => {
  for (const dir of tempDirs) removeDir(dir);
});

function sqliteBackend(): Backend {
  return {
    atomicCommit: true,
    async open() {
      const dir = tempDir('read-store-');
      tempDirs.push(dir);
      const path = join(dir, 'read.db');
      return { store: new SqliteReadStore({ path }), reopen: async () => new SqliteReadStore({ path }) };
    },
  };
}

readStoreContract('sqlite', sqliteBackend());

readStoreContract('sqlite behind CachedReadStore', {
  atomicCommit: true,
  async open() {
    const { store, reopen } = await sqliteBackend().open();
    return { store: new CachedReadStore(store), reopen: async () => new CachedReadStore(await reopen()) };
  },
});

describe('SqliteReadStore specifics', () => {
  let store: SqliteReadStore;
  let reopen: () => Promise<ReadStore>;

  beforeEach(async () => {
    const opened = await sqliteBackend().open();
    store = opened.store as SqliteReadStore;
    reopen = opened.reopen;
  });

  afterEach(async () => {
    await store.close();
  });

  it('serves an indexed where + orderBy with index range seeks, without a sort step', async () => {
    await store.ensureIndexes([{ collection: 'pages', fields: ['space', 'position'] }]);
    await store.commit([put('pages', { id: 'a', space: 's', position: 1 })]);
    // One plan line per segment read: documents without a sort value, then with one (or the reverse).
    const seek = (bounds: string) =>
      `SEARCH docs:pages USING INDEX ix["pages",["space","position"]] (${bounds})`;
    const where = { space: 's' };
    const cases: [FindQuery, string[]][] = [
      [
        { where, orderBy: 'position', limit: 10 },
        [seek('f:space=? AND f:position=?'), seek('f:space=? AND f:position>?')],
      ],
      [
        { where, orderBy: 'position', direction: 'desc', after: { value: 3, id: 'x' }, limit: 10 },
        [seek('f:space=? AND f:position<?'), seek('f:space=? AND f:position=?')],
      ],
      [
        { where, orderBy: 'position', after: { value: null, id: 'x' }, limit: 10 },
        [seek('f:space=? AND f:position=? AND id>?'), seek('f:space=? AND f:position>?')],
      ],
    ];
    for (const [query, plan] of cases) expect(store.explain('pages', query)).toEqual(plan);
  });

  it('orders by a unique index without the id tie-breaker, and refuses a write that breaks it', async () => {
    const spec = [{ collection: 'log', fields: ['org', 'key'], unique: true as const }];
    await store.ensureIndexes([{ collection: 'log', fields: ['org', 'key'] }]);
    await store.ensureIndexes(spec);
    const keys = ['k1', 'k2', 'k3', 'k4', 'k5'];
    // Ids in the opposite order to the keys: an id tie-breaker would show.
    await store.commit(keys.map((key, i) => put('log', { id: `e${9 - i}`, org: 'o', key })));
    await store.commit([put('log', { id: 'other', org: 'p', key: 'k1' })]);
    const seek = (bounds: string) => `SEARCH docs:log USING INDEX ux["log",["org","key"]] (${bounds})`;
    const query: FindQuery = { where: { org: 'o' }, orderBy: 'key', direction: 'desc', limit: 2 };
    // The values are one range seek with no sort step; documents without a key (none, by the promise)
    // are read after them in id order.
    const plan = store.explain('log', { ...query, after: { value: 'k3', id: 'e7' } });
    expect(plan).toEqual([
      seek('f:org=? AND f:key<?'),
      seek('f:org=? AND f:key=?'),
      'USE TEMP B-TREE FOR ORDER BY',
    ]);
    expect(store.explain('log', query)[0]).toBe(seek('f:org=? AND f:key>?'));
    const seen: string[] = [];
    let after: FindQuery['after'];
    do {
      const page = await store.find('log', { ...query, after });
      seen.push(...page.items.map((doc) => doc.key as string));
      after = page.next;
    } while (after);
    expect(seen).toEqual([...keys].reverse());
    // By its code: the driver's errors can come from another test file's realm, where toThrow misses them.
    await expect(store.commit([put('log', { id: 'dup', org: 'o', key: 'k2' })])).rejects.toHaveProperty(
      'code',
      'SQLITE_CONSTRAINT_UNIQUE',
    );
    expect(await store.get('log', 'dup')).toBeNull();
  });

  it('builds deferred indexes only on the call without `deferred`', async () => {
    const spec = [{ collection: 'pages', fields: ['space', 'position'] }];
    await store.ensureIndexes(spec, { deferred: true });
    await store.commit([put('pages', { id: 'a', space: 's', position: 1 })]);
    const query: FindQuery = { where: { space: 's' }, orderBy: 'position', limit: 10 };
    expect(store.explain('pages', query).join('\n')).not.toMatch(/USING INDEX ix/);
    await store.ensureIndexes(spec);
    expect(store.explain('pages', query).join('\n')).toMatch(
      /USING INDEX ix\["pages",\["space","position"\]\]/,
    );
  });

  it('uses the primary key for lookups by id and id order', async () => {
    await store.commit([put('pages', { id: 'a' })]);
    const plan = store.explain('pages', { after: { value: 'a', id: 'a' }, limit: 10 }).join('\n');
    expect(plan).toMatch(/USING (COVERING )?INDEX sqlite_autoindex_docs:pages_1 \(id>\?\)/);
    expect(plan).not.toMatch(/TEMP B-TREE/);
  });

  it('reads an id prefix as a seek on the primary key, in its order', async () => {
    await store.commit([put('terms', { id: 's:a:1' })]);
    const plan = store.explain('terms', { idPrefix: 's:a:', limit: 10 }).join('\n');
    expect(plan).toMatch(/USING (COVERING )?INDEX sqlite_autoindex_docs:terms_1 \(id>\? AND id<\?\)/);
    expect(plan).not.toMatch(/TEMP B-TREE/);
  });

  it('keeps a clustered collection as one B-tree in id order, and an id prefix is a seek on it', async () => {
    await store.ensureIndexes([{ collection: 'terms', fields: ['id'], clustered: true }]);
    await store.commit([put('terms', { id: 's:a:1' })]);
    const plan = store.explain('terms', { idPrefix: 's:a:', limit: 10 }).join('\n');
    expect(plan).toMatch(/USING PRIMARY KEY \(id>\? AND id<\?\)/);
    expect(plan).not.toMatch(/TEMP B-TREE/);
    await expect(
      store.ensureIndexes([{ collection: 'other', fields: ['n'], clustered: true }]),
    ).rejects.toThrow(/only the id/);
  });

  it('gives indexed fields columns, filled from documents stored before the index was declared', async () => {
    await store.commit([
      put('flags', { id: 'f', on: false, n: 2 }),
      put('flags', { id: 't', on: true, n: 1 }),
      put('flags', { id: 'zero', on: 0, n: 3 }),
    ]);
    await store.ensureIndexes([{ collection: 'flags', fields: ['on', 'n'] }]);
    const page = await store.find('flags', { where: { on: false }, orderBy: 'n', limit: 5 });
    expect(page.items.map((doc) => doc.id)).toEqual(['f']);
    expect(page.count).toBe(1);
    expect(store.explain('flags', { where: { on: false }, orderBy: 'n', limit: 5 }).join('\n')).toMatch(
      /USING INDEX ix\["flags",\["on","n"\]\] \(f:on=\?/,
    );
  });

  it('fills a column another connection added since this one prepared its writes', async () => {
    await store.commit([put('pages', { id: 'a', space: 's' })]);
    const other = await reopen();
    try {
      await other.ensureIndexes([{ collection: 'pages', fields: ['space'] }]);
      await store.commit([put('pages', { id: 'b', space: 's' }), put('pages', { id: 'c', space: 't' })]);
      const page = await other.find('pages', { where: { space: 's' }, limit: 5 });
      expect(page.items.map((doc) => doc.id)).toEqual(['a', 'b']);
      expect((await store.find('pages', { where: { space: 't' }, limit: 5 })).count).toBe(1);
    } finally {
      await other.close();
    }
  });

  it("stores a document's JSON without its id (the row's key) and reads it back with the id first", async () => {
    const quoted = 'say "hi"\\ \u00e9';
    await store.commit([
      put('pages', { id: 'a', title: 'A', n: 1 }),
      put('pages', { id: quoted }),
      { collection: 'pages', id: 'c', doc: { id: 'other', title: 'C' } },
    ]);
    const db = (store as unknown as { core: { db: import('better-sqlite3').Database } }).core.db;
    const stored = db.prepare('SELECT id, doc FROM "docs:pages" ORDER BY id').all();
    expect(stored).toEqual([
      { id: 'a', doc: '{"title":"A","n":1}' },
      { id: 'c', doc: '{"title":"C"}' },
      { id: quoted, doc: '{}' },
    ]);
    expect(Object.keys((await store.get('pages', 'a')) ?? {})).toEqual(['id', 'title', 'n']);
    expect(await store.get('pages', quoted)).toEqual({ id: quoted });
    expect(await store.get('pages', 'c')).toEqual({ id: 'c', title: 'C' });
    // A row written before, its id in its JSON too, reads the same.
    db.prepare('INSERT INTO "docs:pages" (id, doc) VALUES (?, ?)').run('d', '{"id":"d","title":"D"}');
    expect(await store.get('pages', 'd')).toEqual({ id: 'd', title: 'D' });
    expect((await store.find('pages', { limit: 10 })).items.map((doc) => doc.id)).toEqual([
      'a',
      'c',
      'd',
      quoted,
    ]);
    expect((await store.all('pages')).at(-1)).toEqual({ id: quoted });
  });

  it('drops indexes on JSON expressions left by earlier versions', async () => {
    await store.commit([put('pages', { id: 'a', space: 's' })]);
    const db = (store as unknown as { core: { db: import('better-sqlite3').Database } }).core.db;
    db.exec(`CREATE INDEX "idx[""pages"",[""space""]]" ON "docs:pages" (json_extract(doc, '$.space'), id)`);
    await store.ensureIndexes([{ collection: 'pages', fields: ['space'] }]);
    const indexes = db
      .prepare(
        "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'docs:pages' AND sql IS NOT NULL",
      )
      .pluck()
      .all();
    expect(indexes).toEqual(['ix["pages",["space"]]']);
  });

  it('rejects field names that cannot be inlined into SQL safely', async () => {
    await expect(store.find('pages', { where: { "a') OR 1=1 --": 'x' }, limit: 1 })).rejects.toThrow(
      /Unsupported field name/,
    );
    await expect(store.ensureIndexes([{ collection: 'pages', fields: ['a.b'] }])).rejects.toThrow(
      /Unsupported field name/,
    );
  });

  it('treats collection names as data, not SQL', async () => {
    const collection = 'it\'s "quoted"';
    await store.ensureIndexes([{ collection, fields: ['n'] }]);
    await store.commit([put(collection, { id: 'a', n: 1 }), put('other', { id: 'b', n: 1 })]);
    const page = await store.find(collection, { where: { n: 1 }, orderBy: 'n', limit: 5 });
    expect(page.items).toEqual([{ id: 'a', n: 1 }]);
    expect(await store.collections()).toEqual(['other', collection].sort());
  });

  it('follows a promote made through another connection at its very next read', async () => {
    await store.ensureIndexes([{ collection: 'pages', fields: ['n'] }]);
    await store.commit([put('pages', { id: 'a', n: 1 })], { name: 'proj', position: 1 });
    // Cache statements on generation 1 tables, as a serving process has.
    expect(await store.get('pages', 'a')).toEqual({ id: 'a', n: 1 });
    expect((await store.find('pages', { where: { n: 1 }, limit: 5 })).count).toBe(1);
    expect(await store.getCheckpoint('proj')).toBe(1);

    const rebuilder = await reopen();
    try {
      const generation = await rebuilder.createGeneration();
      const next = rebuilder.forGeneration(generation);
      await next.ensureIndexes([{ collection: 'pages', fields: ['n'] }]);
      await next.commit([put('pages', { id: 'a', n: 2 }), put('late', { id: 'l' })], {
        name: 'proj',
        position: 2,
      });
      expect(await rebuilder.promote(generation, { checkpoint: 'proj' })).toBe(true);

      // No wait: the next read sees another connection committed (data_version), reads the new live generation in `meta` and re-points.
      expect(await store.get('pages', 'a')).toEqual({ id: 'a', n: 2 });
      expect((await store.find('pages', { where: { n: 2 }, limit: 5 })).count).toBe(1);
      expect(await store.getCheckpoint('proj')).toBe(2);
      expect(await store.all('late')).toEqual([{ id: 'l' }]);
      expect(await store.collections()).toEqual(['late', 'pages']);
      await store.commit([put('pages', { id: 'b' })]);
      expect(await rebuilder.get('pages', 'b')).toEqual({ id: 'b' });
    } finally {
      await rebuilder.close();
    }
  });

  it('opens a file whose live generation is not the first', async () => {
    const generation = await store.createGeneration();
    await store.forGeneration(generation).commit([put('pages', { id: 'a' })], { name: 'p', position: 4 });
    await store.promote(generation);
    await store.close();
    const again = (await reopen()) as SqliteReadStore;
    try {
      expect(await again.generation()).toBe(generation);
      expect(await again.get('pages', 'a')).toEqual({ id: 'a' });
      expect(await again.getCheckpoint('p')).toBe(4);
      expect(await again.createGeneration()).toBeGreaterThan(generation);
    } finally {
      await again.close();
    }
  });

  it('drops the generation a promote retires after the switch, and at the next open what is left', async () => {
    const db = (store as unknown as { core: { db: import('better-sqlite3').Database } }).core.db;
    const tables = () =>
      db
        .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name <> 'meta' ORDER BY name")
        .pluck()
        .all();
    await store.ensureIndexes([{ collection: 'pages', fields: ['n'] }]);
    await store.commit([put('pages', { id: 'a', n: 1 })], { name: 'p', position: 1 });
    const generation = await store.createGeneration();
    const next = store.forGeneration(generation);
    await next.ensureIndexes([{ collection: 'pages', fields: ['n'] }]);
    await next.commit([put('pages', { id: 'a', n: 2 })], { name: 'p', position: 1 });

    expect(await store.promote(generation)).toBe(true);
    // The switch renamed the old tables out of the way; a commit made next does not wait for their drop.
    await store.commit([put('pages', { id: 'b', n: 3 })]);
    expect(tables()).toEqual([
      'g2:checkpoints',
      'g2:docs:pages',
      'retired:checkpoints',
      'retired:docs:pages',
    ]);
    await eventually(async () => tables().every((name) => !String(name).startsWith('retired:')));
    expect((await store.find('pages', { where: { n: 3 }, limit: 5 })).items).toEqual([{ id: 'b', n: 3 }]);

    // As a process that stopped before dropping them all leaves them: the next store to open drops them.
    db.exec('CREATE TABLE "retired:docs:old" (id TEXT PRIMARY KEY, doc TEXT NOT NULL, "f:n")');
    db.exec('CREATE INDEX "ix[""old"",[""n""]]" ON "retired:docs:old" ("f:n", id)');
    const again = await reopen();
    // Closing waits for the drop.
    await again.close();
    expect(tables()).toEqual(['g2:checkpoints', 'g2:docs:pages']);
  });

  it('sees collections created through another connection to the same file', async () => {
    expect(await store.get('late', 'a')).toBeNull();
    const writer = await reopen();
    try {
      await writer.commit([put('late', { id: 'a', v: 1 })]);
      expect(await store.get('late', 'a')).toEqual({ id: 'a', v: 1 });
      expect((await store.find('late', { where: { v: 1 }, limit: 5 })).count).toBe(1);
    } finally {
      await writer.close();
    }
  });
});

const mongoUrl = process.env.MONGO_URL;
const mongoDatabase = `read_store_contract_${Date.now()}_${randomUUID().slice(0, 8)}`;
let mongoPrefixes = 0;

describeIf(Boolean(mongoUrl), 'MongoReadStore contract suite (MONGO_URL is not set)')(
  `MongoReadStore ${MONGO_WIRE}`,
  () => {
    afterAll(async () => {
      const client = new MongoClient(mongoUrl as string);
      try {
        await client.db(mongoDatabase).dropDatabase();
      } finally {
        await client.close();
      }
    });

    readStoreContract('mongo', {
      atomicCommit: false,
      async open() {
        const options = {
          url: mongoUrl as string,
          database: mongoDatabase,
          collectionPrefix: `t${++mongoPrefixes}.`,
          retireAfterMs: 200,
        };
        return {
          store: await MongoReadStore.connect(options),
          reopen: () => MongoReadStore.connect(options),
        };
      },
    });
  },
);
