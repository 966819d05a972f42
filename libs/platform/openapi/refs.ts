/** Every local `$ref` (`#/...`) found anywhere in `node`. */
export function localRefs(node: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const item of node) localRefs(item, found);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith('#/')) found.add(value);
      else localRefs(value, found);
    }
  }
  return found;
}
