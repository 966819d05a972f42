/**
 * Node keys derived from content, so that converting the same Markdown twice gives the same document and
 * an edit changes the keys of the edited node and its ancestors only (a merge diffs documents by key).
 * A key hashes the node without keys; equal nodes are told apart by their rank among equals in document
 * order.
 */
import { createHash } from 'node:crypto';
import type { Document } from './document';

type Keyed = { object: string; key?: string; [field: string]: unknown };

const KEYED = new Set(['block', 'inline', 'text', 'fragment']);

const digest = (text: string) => createHash('sha256').update(text).digest('base64url');

/** Sets the `key` of every block, inline, text and fragment of the document (in place) and returns it. */
export function withKeys(document: Document): Document {
  const hashes = new Map<object, string>();
  for (const node of document.nodes) hashOf(node as unknown as Keyed, hashes);
  const seen = new Map<string, number>();
  const assign = (value: unknown): void => {
    if (Array.isArray(value)) {
      value.forEach(assign);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    const node = value as Keyed;
    const hash = hashes.get(node);
    if (hash !== undefined) {
      const rank = seen.get(hash) ?? 0;
      seen.set(hash, rank + 1);
      node.key = (rank === 0 ? hash : digest(`${hash}:${rank}`)).slice(0, 12);
    }
    for (const field of ['nodes', 'fragments'] as const) assign(node[field]);
  };
  assign(document.nodes);
  return document;
}

/** The hash of a node's content: its fields but the key, with its children's hashes for its children. */
function hashOf(node: Keyed, hashes: Map<object, string>): string {
  const content: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(node)) {
    if (field === 'key') continue;
    content[field] =
      (field === 'nodes' || field === 'fragments') && Array.isArray(value)
        ? value.map((child) => hashOf(child as Keyed, hashes))
        : value;
  }
  const hash = digest(stableJson(content));
  if (KEYED.has(node.object)) hashes.set(node, hash);
  return hash;
}

/** JSON with object fields in sorted order, so equal content hashes equally whatever built it. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const fields = Object.keys(value)
      .filter((field) => (value as Record<string, unknown>)[field] !== undefined)
      .sort()
      .map((field) => `${JSON.stringify(field)}:${stableJson((value as Record<string, unknown>)[field])}`);
    return `{${fields.join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Middle parts of two block lists aligned by a full LCS at most this big (cells); past it, in order. */
const ALIGN_CELLS = 4_000_000;

/**
 * `next` (keyed by `withKeys`) with the blocks it shares with `previous` taken from `previous` as they
 * were, keys and all: a page written again from Markdown keeps the keys of the blocks it did not change.
 * Keys computed from content alone would follow the text, so editing one of two equal paragraphs would
 * hand the untouched one the edited one's key (ranks among equals shift), and two change requests each
 * editing a different copy would look to a merge like edits of the same block. Blocks are aligned by
 * content, common start and end first, then the longest common subsequence of the rest; a key of a new
 * block equal to one kept is drawn again, so keys stay unique in the document.
 */
export function keepKeys(previous: Document, next: Document): Document {
  const hashes = new Map<object, string>();
  const before = previous.nodes.map((node) => hashOf(node as unknown as Keyed, hashes));
  const after = next.nodes.map((node) => hashOf(node as unknown as Keyed, hashes));
  const matched = alignBlocks(before, after);
  if (matched.size === 0) return next;
  const nodes = next.nodes.map((node, i) => {
    const at = matched.get(i);
    return at === undefined ? node : previous.nodes[at];
  });
  const kept = new Set<string>();
  for (const i of matched.keys()) collectKeys(nodes[i], kept);
  const taken = new Set(kept);
  nodes.forEach((node, i) => {
    if (!matched.has(i)) rekeyAgainst(node, taken);
  });
  return { ...next, nodes };
}

/** Which block of `before` each block of `after` is (by index), for blocks of equal content. */
function alignBlocks(before: string[], after: string[]): Map<number, number> {
  const matched = new Map<number, number>();
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) {
    matched.set(start, start);
    start++;
  }
  let endBefore = before.length;
  let endAfter = after.length;
  while (endBefore > start && endAfter > start && before[endBefore - 1] === after[endAfter - 1]) {
    matched.set(--endAfter, --endBefore);
  }
  const b = before.slice(start, endBefore);
  const a = after.slice(start, endAfter);
  if (b.length === 0 || a.length === 0) return matched;
  if (b.length * a.length > ALIGN_CELLS) {
    // In order: each block takes the next unused equal one.
    let from = 0;
    a.forEach((hash, i) => {
      const at = b.indexOf(hash, from);
      if (at < 0) return;
      matched.set(start + i, start + at);
      from = at + 1;
    });
    return matched;
  }
  // lengths[i][j]: the LCS of b[i..] and a[j..].
  const width = a.length + 1;
  const lengths = new Uint32Array((b.length + 1) * width);
  for (let i = b.length - 1; i >= 0; i--)
    for (let j = a.length - 1; j >= 0; j--)
      lengths[i * width + j] =
        b[i] === a[j]
          ? lengths[(i + 1) * width + j + 1] + 1
          : Math.max(lengths[(i + 1) * width + j], lengths[i * width + j + 1]);
  for (let i = 0, j = 0; i < b.length && j < a.length; ) {
    if (b[i] === a[j]) {
      matched.set(start + j, start + i);
      i++;
      j++;
    } else if (lengths[(i + 1) * width + j] >= lengths[i * width + j + 1]) i++;
    else j++;
  }
  return matched;
}

function collectKeys(value: unknown, keys: Set<string>): void {
  if (Array.isArray(value)) {
    for (const item of value) collectKeys(item, keys);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const node = value as Keyed;
  if (typeof node.key === 'string') keys.add(node.key);
  collectKeys(node.nodes, keys);
  collectKeys(node.fragments, keys);
}

/** Draws again (in place) every key of the node and its descendants that is taken, and takes them. */
function rekeyAgainst(value: unknown, taken: Set<string>): void {
  if (Array.isArray(value)) {
    for (const item of value) rekeyAgainst(item, taken);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const node = value as Keyed;
  if (typeof node.key === 'string') {
    let key = node.key;
    for (let n = 1; taken.has(key); n++) key = digest(`${node.key}:again:${n}`).slice(0, 12);
    node.key = key;
    taken.add(key);
  }
  rekeyAgainst(node.nodes, taken);
  rekeyAgainst(node.fragments, taken);
}
