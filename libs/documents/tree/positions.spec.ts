import fc from 'fast-check';
import { isPositionKey, positionBetween } from './positions';

describe('positions', () => {
  it('puts a key strictly between its neighbours, wherever pages are inserted', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 300 }), (picks) => {
        const keys: string[] = [];
        for (const pick of picks) {
          const at = pick % (keys.length + 1);
          const key = positionBetween(keys[at - 1] ?? null, keys[at] ?? null);
          expect(isPositionKey(key)).toBe(true);
          keys.splice(at, 0, key);
        }
        for (let i = 1; i < keys.length; i++) expect(keys[i - 1] < keys[i]).toBe(true);
      }),
    );
  });

  it('stays short when pages are appended or prepended one by one', () => {
    let last: string | null = null;
    let first: string | null = null;
    for (let i = 0; i < 1000; i++) {
      last = positionBetween(last, null);
      first = positionBetween(null, first);
    }
    expect(last?.length).toBeLessThanOrEqual(3);
    expect(first?.length).toBeLessThanOrEqual(3);
  });

  it('refuses keys out of order or malformed', () => {
    expect(() => positionBetween('a1', 'a0')).toThrow();
    expect(() => positionBetween('a1', 'a1')).toThrow();
    expect(() => positionBetween('a10', null)).toThrow();
    expect(isPositionKey('')).toBe(false);
    expect(isPositionKey('a/')).toBe(false);
  });
});
