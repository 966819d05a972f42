import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteReadStore } from '../sqlite-read-store';
import type { Generations } from './generations';

/** Runs `between` once, right after `reader`'s next check for another connection's promote. */
function afterNextCheck(reader: SqliteReadStore, between: () => void): void {
  const generations = (reader as unknown as { core: { generations: Generations } }).core.generations;
  const check = generations.followOthers;
  generations.followOthers = function (this: Generations) {
    check.call(this);
    generations.followOthers = check;
    between();
  };
}

describe('SqliteReadStore following a promote made through another connection', () => {
  let dir: string;
  let reader: SqliteReadStore;
  let rebuilder: SqliteReadStore;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'generations-'));
    const path = join(dir, 'views.sqlite');
    reader = new SqliteReadStore({ path });
    rebuilder = new SqliteReadStore({ path });
    await reader.ensureIndexes([{ collection: 'pages', fields: ['n'] }]);
    await reader.commit([{ collection: 'pages', id: 'a', doc: { id: 'a', n: 1 } }], {
      name: 'p',
      position: 1,
    });
    // Statements cached on generation 1's tables, as a serving process has them.
    expect(await reader.get('pages', 'a')).toEqual({ id: 'a', n: 1 });
    expect((await reader.find('pages', { where: { n: 1 }, limit: 5 })).count).toBe(1);
  });
  afterEach(async () => {
    await rebuilder.close();
    await reader.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function nextGeneration(n: number): Promise<number> {
    const generation = await rebuilder.createGeneration();
    const next = rebuilder.forGeneration(generation);
    await next.ensureIndexes([{ collection: 'pages', fields: ['n'] }]);
    await next.commit([{ collection: 'pages', id: 'a', doc: { id: 'a', n } }], { name: 'p', position: n });
    return generation;
  }

  it('ends a read whose check came before the switch on its snapshot, and follows at the next read', async () => {
    const generation = await nextGeneration(2);
    // The promote commits between the check and the statement, renaming the tables the statement is on.
    afterNextCheck(reader, () => void rebuilder.promote(generation));
    expect(await reader.get('pages', 'a')).toEqual({ id: 'a', n: 1 });
    expect(await rebuilder.generation()).toBe(generation);
    expect(await reader.get('pages', 'a')).toEqual({ id: 'a', n: 2 });

    const third = await nextGeneration(3);
    afterNextCheck(reader, () => void rebuilder.promote(third));
    expect((await reader.find('pages', { where: { n: 2 }, limit: 5 })).items).toEqual([{ id: 'a', n: 2 }]);
    expect((await reader.find('pages', { where: { n: 2 }, limit: 5 })).items).toEqual([]);
    expect(await reader.get('pages', 'a')).toEqual({ id: 'a', n: 3 });
    expect(await reader.getCheckpoint('p')).toBe(3);
  });

  it('reads nothing, without failing, through a handle pinned to a generation another connection retired', async () => {
    const generation = await nextGeneration(2);
    const pinned = reader.forGeneration(generation);
    expect(await pinned.get('pages', 'a')).toEqual({ id: 'a', n: 2 });
    expect(await rebuilder.promote(generation)).toBe(true);
    expect(await pinned.get('pages', 'a')).toEqual({ id: 'a', n: 2 });
    expect(await rebuilder.promote(await nextGeneration(3))).toBe(true);
    expect(await pinned.get('pages', 'a')).toBeNull();
    expect(await pinned.getCheckpoint('p')).toBe(0);
    expect(await pinned.all('pages')).toEqual([]);
    await expect(pinned.commit([])).rejects.toThrow(/was retired/);
  });
});
