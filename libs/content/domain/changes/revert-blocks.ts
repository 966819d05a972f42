import type { JsonObject, JsonValue } from '@app/documents/tree/hash';
import { notFound } from '@app/platform/domain/decider';

type Block = JsonObject;

const keyOf = (block: Block): unknown => block.key;

/**
 * The top-level blocks of a document with the listed blocks reverted to another version of it: a block
 * only in `current` (added) is removed; one only in `old` (deleted) is restored after the block that
 * preceded it there; one in both is reset, in place unless it moved (its predecessor among the blocks
 * both have differs), and then put back after its old predecessor. Other blocks stay as they are.
 */
export function revertBlocks(current: Block[], old: Block[], keys: string[], path: string): Block[] {
  const result = [...current];
  for (const [i, key] of keys.entries()) {
    const was = old.find((block) => keyOf(block) === key);
    const at = result.findIndex((block) => keyOf(block) === key);
    if (!was && at < 0) throw notFound(`${path}[${i}]: block ${key} is in neither version of the page`);
    if (!was) {
      result.splice(at, 1);
      continue;
    }
    const before = predecessor(old, key, (k) => k !== key && result.some((b) => keyOf(b) === k));
    if (at >= 0 && before === predecessor(result, key, (k) => old.some((b) => keyOf(b) === k))) {
      result[at] = was;
      continue;
    }
    if (at >= 0) result.splice(at, 1);
    const anchor = before === undefined ? -1 : result.findIndex((block) => keyOf(block) === before);
    result.splice(anchor + 1, 0, was);
  }
  return result;
}

/** The key of the nearest block before `key` in `blocks` that `counts`; undefined when none. */
function predecessor(blocks: Block[], key: string, counts: (key: unknown) => boolean): unknown {
  const at = blocks.findIndex((block) => keyOf(block) === key);
  for (let i = (at < 0 ? blocks.length : at) - 1; i >= 0; i--) {
    if (counts(keyOf(blocks[i]))) return keyOf(blocks[i]);
  }
  return undefined;
}

/** The top-level blocks of a stored document (none for a document of another shape). */
export function blocksOf(document: JsonValue | undefined): Block[] {
  if (typeof document !== 'object' || document === null || Array.isArray(document)) return [];
  const nodes = document.nodes;
  return Array.isArray(nodes)
    ? nodes.filter((n): n is Block => typeof n === 'object' && n !== null && !Array.isArray(n))
    : [];
}
