import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteReadStore } from '../readstore/sqlite-read-store';
import { DeferredIndexes } from './deferred-indexes';

describe('DeferredIndexes', () => {
  let dir: string;
  let store: SqliteReadStore;
  const specs = [
    { collection: 'spaces', fields: ['org', 'position'] },
    { collection: 'spaces', fields: ['parent'] },
    { collection: 'audit', fields: ['org', 'sortKey'] },
  ];
  const plan = (collection: string, field: string) =>
    store.explain(collection, { where: { [field]: 'x' }, limit: 1 }).join('\n');

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'deferred-indexes-'));
    store = new SqliteReadStore({ path: join(dir, 'views.sqlite') });
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('builds one collection on demand, then the rest, each index once and in a transaction of its own', async () => {
    const indexes = new DeferredIndexes(store, specs);
    await indexes.prepare();
    const calls: number[] = [];
    const ensure = store.ensureIndexes.bind(store);
    // One call is one write transaction.
    store.ensureIndexes = async (given, options) => {
      calls.push(given.length);
      await ensure(given, options);
    };
    await store.commit([
      { collection: 'spaces', id: 's', doc: { id: 's', org: 'x', parent: 'x' } },
      { collection: 'audit', id: 'a', doc: { id: 'a', org: 'x' } },
    ]);
    expect(plan('spaces', 'parent')).not.toMatch(/USING INDEX ix/);

    await indexes.build('spaces');
    await indexes.build('spaces');
    expect(plan('spaces', 'parent')).toMatch(/USING INDEX ix\["spaces",\["parent"\]\]/);
    expect(plan('audit', 'org')).not.toMatch(/USING INDEX ix/);

    await indexes.build();
    await indexes.build();
    expect(plan('audit', 'org')).toMatch(/USING INDEX ix\["audit",\["org","sortKey"\]\]/);
    expect(calls).toEqual([1, 1, 1]);
  });

  it('keeps the indexes a failed build did not reach, and builds only those when asked again', async () => {
    const indexes = new DeferredIndexes(store, specs);
    await indexes.prepare();
    const built: string[][] = [];
    const ensure = store.ensureIndexes.bind(store);
    let failures = 1;
    store.ensureIndexes = async (given, options) => {
      if (built.length === 1 && failures-- > 0) throw new Error('disk full');
      built.push(given[0].fields);
      await ensure(given, options);
    };

    await expect(indexes.build()).rejects.toThrow('disk full');
    expect(built).toEqual([['org', 'position']]);

    await indexes.build();
    expect(built).toEqual([['org', 'position'], ['parent'], ['org', 'sortKey']]);
    expect(plan('spaces', 'parent')).toMatch(/USING INDEX ix\["spaces",\["parent"\]\]/);
  });
});
