/**
 * The part of node-diff3 used here. The package ships its types behind `exports` only, which this
 * project's `moduleResolution: node` does not read; its runtime has a CommonJS build (`require`).
 */
declare module 'node-diff3' {
  export interface MergeRegion<T> {
    ok?: T[];
    conflict?: { a: T[]; aIndex: number; o: T[]; oIndex: number; b: T[]; bIndex: number };
  }
  /** Three-way merge of sequences `a` and `b`, both derived from `o`: stable runs and conflicting regions. */
  export function diff3Merge<T>(
    a: T[],
    o: T[],
    b: T[],
    options?: { excludeFalseConflicts?: boolean },
  ): MergeRegion<T>[];
  /** The hunks that turn `buffer1` into `buffer2`: where in `buffer1` (start, length), and what replaces it. */
  export function diffIndices<T>(
    buffer1: T[],
    buffer2: T[],
  ): { buffer1: [number, number]; buffer1Content: T[]; buffer2: [number, number]; buffer2Content: T[] }[];
}
