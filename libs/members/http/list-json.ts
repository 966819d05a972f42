import type { ListEnvelope } from '@app/platform/http/pagination';

/** Each item's JSON by the item: written once while the item object lives. */
const written = new WeakMap<object, string>();

/**
 * A list envelope as `JSON.stringify` writes it, byte for byte, each item written once per item object.
 * The member queries keep presented items until the views they come from change and answer the same
 * objects meanwhile, so a search's page is mostly made of JSON already written; a new object (after a
 * change, or from another process) is written anew. Items are never changed once presented.
 */
export function listJson(list: ListEnvelope<object>): string {
  // Joined once: pieces added one by one make a tree of strings, copied again when the answer is sent.
  const parts: string[] = [];
  for (const [key, value] of Object.entries(list)) {
    if (key === 'items') {
      parts.push(parts.length === 0 ? '{' : ',', '"items":[');
      for (let i = 0; i < list.items.length; i++) {
        if (i > 0) parts.push(',');
        parts.push(itemJson(list.items[i]));
      }
      parts.push(']');
      continue;
    }
    const json = JSON.stringify(value);
    if (json !== undefined) parts.push(parts.length === 0 ? '{' : ',', JSON.stringify(key), ':', json);
  }
  parts.push(parts.length === 0 ? '{}' : '}');
  return parts.join('');
}

function itemJson(item: object): string {
  if (typeof item !== 'object' || item === null) return JSON.stringify(item) ?? 'null';
  let json = written.get(item);
  if (json === undefined) {
    json = JSON.stringify(item) ?? 'null';
    written.set(item, json);
  }
  return json;
}
