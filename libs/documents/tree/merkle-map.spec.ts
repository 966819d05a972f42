import fc from 'fast-check';
import type { JsonValue } from './hash';
import { keyLevel, type MapRoot, mapDelete, mapDiff, mapGet, mapScan, mapSet } from './merkle-map';
import { MemoryObjectStore, ObjectWriter } from './objects';

type Op = { set: string; value: number } | { del: string };

const key = fc.stringMatching(/^[a-d]{1,3}$/);
const ops = fc.array(
  fc.oneof(fc.record({ set: key, value: fc.integer({ min: 0, max: 3 }) }), fc.record({ del: key })),
  { maxLength: 120 },
);

async function run(writer: ObjectWriter, root: MapRoot, script: Op[]): Promise<MapRoot> {
  let at = root;
  for (const op of script)
    at = 'set' in op ? await mapSet(writer, at, op.set, op.value) : await mapDelete(writer, at, op.del);
  return at;
}

const model = (script: Op[], start = new Map<string, JsonValue>()) => {
  const map = new Map(start);
  for (const op of script) {
    if ('set' in op) map.set(op.set, op.value);
    else map.delete(op.del);
  }
  return map;
};

const sorted = (map: Map<string, JsonValue>) =>
  [...map.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

describe('merkle map', () => {
  it('reads back what a script of sets and deletes left, in key order', async () => {
    await fc.assert(
      fc.asyncProperty(ops, async (script) => {
        const writer = new ObjectWriter(new MemoryObjectStore());
        const root = await run(writer, null, script);
        const expected = model(script);
        expect(await mapScan(writer, root)).toEqual(sorted(expected));
        for (const k of ['a', 'b', 'ab', 'dd', 'abc'])
          expect(await mapGet(writer, root, k)).toEqual(expected.get(k));
      }),
    );
  });

  it('has one shape per set of entries, whatever the order of the edits that made it', async () => {
    await fc.assert(
      fc.asyncProperty(ops, async (script) => {
        const writer = new ObjectWriter(new MemoryObjectStore());
        const root = await run(writer, null, script);
        const direct = sorted(model(script)).reverse();
        const rebuilt = await run(
          writer,
          null,
          direct.map(([k, v]) => ({ set: k, value: v as number })),
        );
        expect(rebuilt).toBe(root);
      }),
    );
  });

  it('has one shape for large maps too, built and pruned in any order', async () => {
    const keys = Array.from({ length: 1000 }, (_, i) => `page-${i}`);
    await fc.assert(
      fc.asyncProperty(
        fc.shuffledSubarray(keys, { minLength: 1000 }),
        fc.integer({ min: 0, max: 1000 }),
        async (order, cut) => {
          const writer = new ObjectWriter(new MemoryObjectStore());
          let shuffled: MapRoot = null;
          for (const k of order) shuffled = await mapSet(writer, shuffled, k, 1);
          for (const k of order.slice(cut)) shuffled = await mapDelete(writer, shuffled, k);
          let direct: MapRoot = null;
          for (const k of [...order.slice(0, cut)].sort()) direct = await mapSet(writer, direct, k, 1);
          expect(shuffled).toBe(direct);
          expect((await mapScan(writer, shuffled)).length).toBe(cut);
        },
      ),
      { numRuns: 3 },
    );
  });

  it('diffs two maps into the keys that differ', async () => {
    await fc.assert(
      fc.asyncProperty(ops, ops, async (first, second) => {
        const writer = new ObjectWriter(new MemoryObjectStore());
        const a = await run(writer, null, first);
        const b = await run(writer, a, second);
        const before = model(first);
        const after = model(second, before);
        const expected = [...new Set([...before.keys(), ...after.keys()])]
          .sort()
          .filter((k) => before.get(k) !== after.get(k))
          .map((k) => ({
            key: k,
            ...(before.has(k) ? { before: before.get(k) } : {}),
            ...(after.has(k) ? { after: after.get(k) } : {}),
          }));
        expect(await mapDiff(writer, a, b)).toEqual(expected);
      }),
    );
  });

  it('scans a range of keys', async () => {
    const writer = new ObjectWriter(new MemoryObjectStore());
    let root: MapRoot = null;
    for (let i = 0; i < 300; i++) root = await mapSet(writer, root, `k${String(i).padStart(3, '0')}`, i);
    const range = await mapScan(writer, root, { from: 'k100', before: 'k110' });
    expect(range.map(([, v]) => v)).toEqual([100, 101, 102, 103, 104, 105, 106, 107, 108, 109]);
    expect(await mapScan(writer, root, { from: 'k2999' })).toEqual([]);
    expect((await mapScan(writer, root, { before: 'k003' })).length).toBe(3);
  });

  it('keeps 3 keys in 4 on level 0, and 1 in 16 above level 1', () => {
    const levels = Array.from({ length: 8192 }, (_, i) => keyLevel(`page-${i}`));
    const share = (test: (l: number) => boolean) => levels.filter(test).length / levels.length;
    expect(share((l) => l === 0)).toBeCloseTo(0.75, 1);
    expect(share((l) => l >= 2)).toBeCloseTo(1 / 16, 1);
  });

  it('answers the same root when a set changes nothing', async () => {
    const writer = new ObjectWriter(new MemoryObjectStore());
    const root = await run(writer, null, [
      { set: 'a', value: 1 },
      { set: 'b', value: 2 },
    ]);
    expect(await mapSet(writer, root, 'a', 1)).toBe(root);
    expect(await mapDelete(writer, root, 'zz')).toBe(root);
  });
});
