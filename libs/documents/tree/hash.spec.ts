import { canonicalJson, HASH_LENGTH, hashOf, jsonEquals } from './hash';

describe('hashing', () => {
  it('writes JSON with sorted keys, no whitespace and no undefined fields', () => {
    expect(canonicalJson({ b: 1, a: [true, null, 'x'], c: undefined, d: { z: 1, y: 2 } })).toBe(
      '{"a":[true,null,"x"],"b":1,"d":{"y":2,"z":1}}',
    );
    expect(() => canonicalJson({ n: Number.NaN })).toThrow();
  });

  it('gives equal values one hash of 22 base64url characters', () => {
    const hash = hashOf({ a: 1, b: [1, 2] });
    expect(hash).toMatch(new RegExp(`^[A-Za-z0-9_-]{${HASH_LENGTH}}$`));
    expect(hashOf({ b: [1, 2], a: 1, c: undefined })).toBe(hash);
    expect(hashOf({ a: 1, b: [2, 1] })).not.toBe(hash);
  });

  it('compares JSON values deeply, an undefined field counting as absent', () => {
    expect(jsonEquals({ a: [1, { b: 2 }], c: undefined }, { a: [1, { b: 2 }] })).toBe(true);
    expect(jsonEquals({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
    expect(jsonEquals({ a: null }, {})).toBe(false);
    expect(jsonEquals([1], { 0: 1 })).toBe(false);
  });
});
