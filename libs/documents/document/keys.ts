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
