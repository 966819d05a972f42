import type { DocumentNode } from './document';
import { keysOf } from './document.testing';
import { markdownToDocument } from './from-markdown';
import { keepKeys } from './keys';

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

describe('keys kept across a rewrite from Markdown', () => {
  const doc = (markdown: string) => markdownToDocument(markdown).document;
  const top = (document: { nodes: unknown[] }) => (document.nodes as DocumentNode[]).map((n) => n.key);
  const repeated = '# Title\n\nSame words.\n\nBetween.\n\nSame words.\n';

  it('keeps the key of the copy of a repeated paragraph left as it was, whichever copy is edited', () => {
    const before = top(doc(repeated));
    const firstEdited = top(keepKeys(doc(repeated), doc(repeated.replace('Same words.', 'Edited.'))));
    const secondEdited = top(
      keepKeys(doc(repeated), doc('# Title\n\nSame words.\n\nBetween.\n\nOther words.\n')),
    );
    // Computed from content alone, the untouched second copy would take the first copy's key.
    expect(top(doc(repeated.replace('Same words.', 'Edited.')))[3]).toBe(before[1]);
    expect(firstEdited[3]).toBe(before[3]);
    expect(firstEdited[1]).not.toBe(before[1]);
    expect(secondEdited[1]).toBe(before[1]);
    expect(secondEdited[3]).not.toBe(before[3]);
  });

  it('keeps every key of an unchanged document, and the blocks around an insertion or a removal', () => {
    expect(keepKeys(doc(repeated), doc(repeated))).toEqual(doc(repeated));
    const before = top(doc(repeated));
    const inserted = top(keepKeys(doc(repeated), doc(`${repeated}\nNew.\n`)));
    expect(inserted.slice(0, 4)).toEqual(before);
    const removed = top(keepKeys(doc(repeated), doc('# Title\n\nBetween.\n\nSame words.\n')));
    expect(removed).toEqual([before[0], before[2], before[3]]);
  });

  it('draws again a new key equal to one kept, so every key stays unique', () => {
    // The last copy is kept with its rank-1 key; the new middle copy computes that same key.
    const previous = doc('Same.\n\nY.\n\nSame.\n');
    const computed = top(doc('Same.\n\nSame.\n\nSame.\n'));
    const next = keepKeys(previous, doc('Same.\n\nSame.\n\nSame.\n'));
    expect(top(next)[2]).toBe(top(previous)[2]);
    expect(computed[1]).toBe(top(previous)[2]);
    expect(top(next)[1]).not.toBe(computed[1]);
    const keys = keysOf(next.nodes);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
