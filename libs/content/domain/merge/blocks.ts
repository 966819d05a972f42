import { type JsonValue, jsonEquals } from '@app/documents/tree/hash';
import { diff3Merge, diffIndices } from 'node-diff3';
import { merge3, mergeRecords } from './three-way';

/**
 * Three-way merge of one document, block by block. A GitBook document is `{object, data, nodes}` whose
 * top-level `nodes` are blocks with unique `key`s. The order of the blocks is merged with diff3 over
 * their keys (node-diff3); the content of each block is then taken from the side that changed it.
 *
 * Where diff3 reports a conflicting region, two cases are still clear and resolved: both sides only
 * inserted blocks at the same place (ours' go first), or one side only deleted blocks there (the other
 * side's region without them). Anything else there is a conflict, as are a block both sides changed
 * differently, a block one side deleted and the other changed, and a block both sides moved.
 */
export type DocumentMerge =
  | { ok: true; document: JsonValue }
  | { ok: false; blocks: string[]; fields: string[] };

type Block = { key: string } & Record<string, JsonValue>;

/** The keyed blocks of a document, or undefined when it has none in that shape (then it merges whole). */
function blocksOf(document: JsonValue): Map<string, Block> | undefined {
  if (typeof document !== 'object' || document === null || Array.isArray(document)) return undefined;
  const nodes = document.nodes;
  if (!Array.isArray(nodes)) return undefined;
  const blocks = new Map<string, Block>();
  for (const node of nodes) {
    const key = typeof node === 'object' && node !== null && !Array.isArray(node) ? node.key : undefined;
    if (typeof key !== 'string' || blocks.has(key)) return undefined;
    blocks.set(key, node as Block);
  }
  return blocks;
}

const isSubsequence = (part: string[], whole: string[]) => {
  let i = 0;
  for (const key of whole) if (key === part[i]) i++;
  return i === part.length;
};

/** A region diff3 could not merge, resolved when the two sides' edits there cannot contradict. */
function resolveRegion(a: string[], o: string[], b: string[]): string[] | undefined {
  if (o.length === 0) return a.some((k) => b.includes(k)) ? undefined : [...a, ...b];
  if (isSubsequence(a, o)) return b.filter((k) => a.includes(k) || !o.includes(k));
  if (isSubsequence(b, o)) return a.filter((k) => b.includes(k) || !o.includes(k));
  return applyDisjointHunks(a, o, b);
}

interface Hunk {
  start: number;
  end: number;
  keys: string[];
}

const hunks = (base: string[], side: string[]): Hunk[] =>
  diffIndices(base, side).map(({ buffer1: [start, length], buffer2Content }) => ({
    start,
    end: start + length,
    keys: buffer2Content,
  }));

/**
 * diff3 joins changes that touch into one region, so two sides editing neighbouring blocks (whose keys
 * change with their content) would conflict. Here each side's edits of the region are taken apart; when
 * no edit of one side overlaps one of the other (an insertion inside a range the other replaced counts
 * as overlapping), both apply, insertions at one place ours first.
 */
function applyDisjointHunks(a: string[], o: string[], b: string[]): string[] | undefined {
  const ours = hunks(o, a);
  const theirs = hunks(o, b);
  const overlaps = (x: Hunk, y: Hunk) => x.start < y.end && y.start < x.end;
  if (ours.some((x) => theirs.some((y) => overlaps(x, y)))) return undefined;
  const all = [...ours, ...theirs].sort(
    (x, y) => x.start - y.start || Number(x.end > x.start) - Number(y.end > y.start),
  );
  const out: string[] = [];
  let at = 0;
  for (const hunk of all) {
    out.push(...o.slice(at, hunk.start), ...hunk.keys);
    at = Math.max(at, hunk.end, hunk.start);
  }
  out.push(...o.slice(at));
  return out;
}

export function mergeDocuments(base: JsonValue, ours: JsonValue, theirs: JsonValue): DocumentMerge {
  const whole = merge3(base, ours, theirs);
  if (whole.ok) return { ok: true, document: whole.value as JsonValue };
  const [b, o, t] = [blocksOf(base), blocksOf(ours), blocksOf(theirs)];
  if (!b || !o || !t) return { ok: false, blocks: [], fields: ['document'] };
  const rest = (doc: JsonValue) => ({ ...(doc as Record<string, JsonValue>), nodes: undefined });
  const fields = mergeRecords(rest(base), rest(ours), rest(theirs));

  const conflicts = new Set<string>();
  const order: string[] = [];
  for (const region of diff3Merge([...o.keys()], [...b.keys()], [...t.keys()], {
    excludeFalseConflicts: true,
  })) {
    if (region.ok) order.push(...region.ok);
    else if (region.conflict) {
      const { a, o: was, b: other } = region.conflict;
      const resolved = resolveRegion(a, was, other);
      if (resolved) order.push(...resolved);
      else for (const key of [...a, ...was, ...other]) conflicts.add(key);
    }
  }
  const placed = new Set<string>();
  for (const key of order) {
    if (placed.has(key)) conflicts.add(key); // moved by both sides to different places
    placed.add(key);
  }
  const nodes: JsonValue[] = [];
  for (const key of placed) {
    const merged = merge3(b.get(key), o.get(key), t.get(key));
    if (merged.ok && merged.value) nodes.push(merged.value);
    else conflicts.add(key);
  }
  // A block left out must have been deleted by a side, and not changed by the other.
  for (const key of new Set([...b.keys(), ...o.keys(), ...t.keys()])) {
    if (placed.has(key)) continue;
    const was = b.get(key);
    const kept = [o.get(key), t.get(key)].filter((block) => block !== undefined);
    if (!was || kept.some((block) => !jsonEquals(block, was))) conflicts.add(key);
  }
  if (conflicts.size > 0 || fields.conflicts.length > 0) {
    return { ok: false, blocks: [...conflicts].sort(), fields: fields.conflicts };
  }
  return { ok: true, document: { ...(fields.value as Record<string, JsonValue>), nodes } };
}
