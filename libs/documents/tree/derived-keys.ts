import { createHash } from 'node:crypto';

/**
 * The node keys a document converted from Markdown has, derived from its content, as stored objects
 * recompute them (`encodeObject`'s keyless form): a copy of the derivation of
 * libs/documents/document/keys.ts as it was when documents were first stored without their keys, kept
 * here unchanged so that what was stored so reads back the same whatever becomes of the converter's.
 * A node's key hashes its fields but the key, its children by their hashes; equal nodes are told apart
 * by their rank among equals in document order.
 *
 * Frozen: changing what this computes would change the documents stored without keys, and so break the
 * hashes that name them. A new derivation is a new stored form, beside this one.
 */

type Node = { object?: unknown; key?: unknown; [field: string]: unknown };

const KEYED = new Set(['block', 'inline', 'text', 'fragment']);
const CHILDREN = ['nodes', 'fragments'] as const;

const digest = (text: string) => createHash('sha256').update(text).digest('base64url');

/** Sets the key of every block, inline, text and fragment below the document's `nodes` (in place). */
export function deriveKeys(document: { nodes?: unknown }): void {
  if (!Array.isArray(document.nodes)) return;
  const hashes = new Map<object, string>();
  for (const node of document.nodes) hashOf(node as Node, hashes);
  const seen = new Map<string, number>();
  const assign = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) assign(item);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    const node = value as Node;
    const hash = hashes.get(node);
    if (hash !== undefined) {
      const rank = seen.get(hash) ?? 0;
      seen.set(hash, rank + 1);
      node.key = (rank === 0 ? hash : digest(`${hash}:${rank}`)).slice(0, 12);
    }
    for (const field of CHILDREN) assign(node[field]);
  };
  assign(document.nodes);
}

/**
 * A copy of the document without the keys `deriveKeys` sets (those of blocks, inlines, texts and
 * fragments below its `nodes`); whatever else it holds is copied as it is.
 */
export function withoutDerivedKeys(document: Record<string, unknown>): Record<string, unknown> {
  const strip = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(strip);
    if (value === null || typeof value !== 'object') return value;
    const node = value as Node;
    const out: Record<string, unknown> = {};
    for (const field in node) {
      if (field === 'key' && KEYED.has(node.object as string)) continue;
      out[field] = field === 'nodes' || field === 'fragments' ? strip(node[field]) : node[field];
    }
    return out;
  };
  return { ...document, nodes: strip(document.nodes) };
}

function hashOf(node: Node, hashes: Map<object, string>): string {
  if (node === null || typeof node !== 'object') return digest(stableJson(node));
  const content: Record<string, unknown> = {};
  for (const field in node) {
    if (field === 'key') continue;
    const value = node[field];
    content[field] =
      (field === 'nodes' || field === 'fragments') && Array.isArray(value)
        ? value.map((child) => hashOf(child as Node, hashes))
        : value;
  }
  const hash = digest(stableJson(content));
  if (KEYED.has(node.object as string)) hashes.set(node, hash);
  return hash;
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const fields = Object.keys(record)
      .filter((field) => record[field] !== undefined)
      .sort()
      .map((field) => `${JSON.stringify(field)}:${stableJson(record[field])}`);
    return `{${fields.join(',')}}`;
  }
  return JSON.stringify(value);
}
