import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommitThread } from './commit-thread';
import { SqliteReadStore } from './sqlite-read-store';

// The thread runs the compiled worker from dist/, which `npm test` builds first.
describe('CommitThread', () => {
  let dir: string;
  let path: string;
  let store: SqliteReadStore;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'commit-thread-'));
    path = join(dir, 'views.sqlite');
    store = new SqliteReadStore({ path });
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('commits a generation on a thread of its own, in order, and reads what it committed', async () => {
    const generation = await store.createGeneration();
    const target = store.forRebuild(generation);
    expect(target).toBeInstanceOf(CommitThread);
    await target.ensureIndexes([{ collection: 'spaces', fields: ['org'] }], { deferred: true });
    const first = target.commit([{ collection: 'spaces', id: 's1', doc: { id: 's1', org: 'a', n: 1 } }]);
    const second = target.commit([{ collection: 'spaces', id: 's1', doc: { id: 's1', org: 'b', n: 2 } }], {
      name: 'projector',
      position: 7,
    });
    await Promise.all([first, second]);
    await target.ensureIndexes([{ collection: 'spaces', fields: ['org'] }]);
    expect(await target.get('spaces', 's1')).toEqual({ id: 's1', org: 'b', n: 2 });
    expect((await target.find('spaces', { where: { org: 'b' }, limit: 10 })).items).toHaveLength(1);
    expect(await target.getCheckpoint('projector')).toBe(7);
    // Not the live generation: plain handles see nothing of it until it is promoted.
    expect(await store.get('spaces', 's1')).toBeNull();
    await target.close();
    expect(await store.promote(generation)).toBe(true);
    expect(await store.get('spaces', 's1')).toEqual({ id: 's1', org: 'b', n: 2 });
  });

  it('hands documents over as JSON, from which the thread fills the columns, and deletes', async () => {
    const generation = await store.createGeneration();
    // Columns the thread's caller never asked for (made through another handle) are filled too.
    await store.forGeneration(generation).ensureIndexes([{ collection: 'spaces', fields: ['kind'] }], {
      deferred: true,
    });
    const target = store.forRebuild(generation);
    await target.ensureIndexes([{ collection: 'spaces', fields: ['org', 'id'] }], { deferred: true });
    await target.commit([
      {
        collection: 'spaces',
        id: 's1',
        doc: { id: 's1', org: 'a', kind: 'doc', tags: ['x'] },
        created: true,
      },
      { collection: 'spaces', id: 's2', doc: { id: 's2', org: { nested: true }, kind: null } },
      { collection: 'spaces', id: 's3', doc: { id: 's3', org: 'a', kind: 'doc' } },
    ]);
    await target.commit([{ collection: 'spaces', id: 's3', doc: null }]);
    await target.ensureIndexes([
      { collection: 'spaces', fields: ['org'] },
      { collection: 'spaces', fields: ['kind'] },
    ]);
    expect(await target.get('spaces', 's1')).toEqual({ id: 's1', org: 'a', kind: 'doc', tags: ['x'] });
    expect(await target.get('spaces', 's3')).toBeNull();
    const ids = async (where: Record<string, string | null>) =>
      (await target.find('spaces', { where, limit: 10 })).items.map((doc) => doc.id);
    expect(await ids({ org: 'a' })).toEqual(['s1']);
    expect(await ids({ kind: 'doc' })).toEqual(['s1']);
    expect(await ids({ kind: null })).toEqual(['s2']);
    await target.close();
  });

  it('fails a commit the thread cannot apply, and answers nothing more once closed', async () => {
    const generation = await store.createGeneration();
    const target = store.forRebuild(generation);
    await expect(
      target.ensureIndexes([{ collection: 'spaces', fields: ['not a field'] }], { deferred: true }),
    ).rejects.toThrow(/Unsupported field name/);
    await target.close();
    await expect(target.commit([])).rejects.toThrow(/exited/);
  });
});
