import type { DocumentNode } from './document';
import { markdownToDocument } from './from-markdown';

/** Every key of a document, in document order. */
function keysOf(value: unknown, keys: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) keysOf(item, keys);
  else if (value !== null && typeof value === 'object') {
    const node = value as { key?: string; nodes?: unknown; fragments?: unknown };
    if (node.key !== undefined) keys.push(node.key);
    keysOf(node.nodes, keys);
    keysOf(node.fragments, keys);
  }
  return keys;
}

const topKeys = (markdown: string) =>
  (markdownToDocument(markdown).document.nodes as DocumentNode[]).map((node) => node.key);

describe('node keys', () => {
  const markdown = '# Title\n\nSame.\n\nSame.\n\n* Same.\n* Same.\n\n| Same. | |\n| - | - |\n| | |\n';

  it('key every block, inline, text and fragment, uniquely, equal content included', () => {
    const keys = keysOf(markdownToDocument(markdown).document.nodes);
    expect(keys.length).toBeGreaterThanOrEqual(20);
    expect(new Set(keys).size).toBe(keys.length);
    for (const key of keys) expect(key).toMatch(/^[A-Za-z0-9_-]{12}$/);
  });

  it('are the same for the same Markdown', () => {
    expect(markdownToDocument(markdown)).toEqual(markdownToDocument(markdown));
  });

  it('change for the edited block only, not for the blocks around it', () => {
    const before = topKeys('# Title\n\nFirst.\n\nSecond.\n\nThird.');
    const after = topKeys('# Title\n\nFirst.\n\nSecond, edited.\n\nThird.');
    expect(after.filter((key, i) => key !== before[i])).toEqual([after[2]]);
    const inserted = topKeys('# Title\n\nNew.\n\nFirst.\n\nSecond.\n\nThird.');
    expect(inserted.filter((key) => !before.includes(key))).toEqual([inserted[1]]);
  });
});
