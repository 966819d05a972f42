import { weightOf } from './weight';

describe('weightOf', () => {
  it('counts headers, slots and characters', () => {
    expect(weightOf('abc')).toBe(19);
    expect(weightOf(42)).toBe(0);
    expect(weightOf(null)).toBe(0);
    expect(weightOf([1, 2])).toBe(48);
    expect(weightOf({ a: 'x', b: [true] })).toBe(24 + 8 + 17 + 8 + 40);
  });

  it('grows with what a value holds', () => {
    const page = (n: number) => ({
      nodes: Array.from({ length: n }, (_, i) => ({ text: `paragraph ${i}` })),
    });
    expect(weightOf(page(200))).toBeGreaterThan(10 * weightOf(page(10)));
  });
});
