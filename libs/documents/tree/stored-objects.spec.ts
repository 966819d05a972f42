import { randomBytes } from 'node:crypto';
import { deriveKeys } from './derived-keys';
import { canonicalJson } from './hash';
import { decodeObject, encodeObject, joinParts, partCount, partId, storedEntries } from './stored-objects';

/** A document as the converter keys it: every block and text keyed from its content. */
function keyedDocument(paragraphs: number) {
  const document = {
    object: 'document',
    data: {},
    nodes: Array.from({ length: paragraphs }, (_, i) => ({
      object: 'block',
      type: 'paragraph',
      data: {},
      nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: `Paragraph ${i % 7}.`, marks: [] }] }],
    })),
  };
  deriveKeys(document);
  return document;
}

describe('stored content objects', () => {
  it('keeps small objects as their canonical JSON, what was always stored', () => {
    const node = { h: 0, e: [['a', 'hash']] };
    expect(encodeObject(node)).toBe(canonicalJson(node));
    expect(decodeObject(canonicalJson(node))).toEqual(node);
  });

  it('deflates a large object, and stores a keyed document without the keys it derives again', () => {
    const document = keyedDocument(200);
    // Equal paragraphs are told apart by rank: every key differs.
    expect(new Set(document.nodes.map((n) => (n as { key?: string }).key)).size).toBe(200);
    const json = canonicalJson(document);
    const stored = encodeObject(document);
    expect(stored.startsWith('~k')).toBe(true);
    expect(stored.length).toBeLessThan(json.length / 10);
    expect(canonicalJson(decodeObject(stored))).toBe(json);
  });

  it('keeps the keys of a document whose keys are not the derived ones', () => {
    const document = keyedDocument(50);
    (document.nodes[3] as { key?: string }).key = 'chosen';
    const stored = encodeObject(document);
    expect(stored.startsWith('~z')).toBe(true);
    expect(canonicalJson(decodeObject(stored))).toBe(canonicalJson(document));
    const other = { object: 'not-a-document', text: 'x'.repeat(1000) };
    expect(encodeObject(other).startsWith('~z')).toBe(true);
    expect(decodeObject(encodeObject(other))).toEqual(other);
  });

  it('stores what deflating would not shrink as it is', () => {
    const random = { text: randomBytes(1500).toString('base64') };
    expect(encodeObject(random)).toBe(canonicalJson(random));
    expect(decodeObject(encodeObject(random))).toEqual(random);
  });

  it('cuts an object too large for one event into parts stored before it', () => {
    const document = keyedDocument(3000);
    const stored = encodeObject(document);
    const entries = storedEntries('h', stored, 1000);
    const count = Math.ceil(stored.length / 998);
    expect(entries.map(([id]) => id)).toEqual([
      ...Array.from({ length: count }, (_, i) => partId('h', i + 1)),
      'h',
    ]);
    expect(entries.every(([, text]) => text.length <= 1000)).toBe(true);
    const [, list] = entries[entries.length - 1];
    expect(partCount(list)).toBe(count);
    expect(() => decodeObject(list)).toThrow(/parts/);
    const joined = joinParts(entries.slice(0, -1).map(([, text]) => text));
    expect(canonicalJson(decodeObject(joined))).toBe(canonicalJson(document));
    expect(storedEntries('h', stored, stored.length)).toEqual([['h', stored]]);
    expect(partCount(stored)).toBeUndefined();
  });
});
