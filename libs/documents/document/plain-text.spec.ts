import { markdownToDocument, plainTextDocument, plainTextMarkdown } from './from-markdown';
import { documentToMarkdown } from './to-markdown';

/** A small deterministic generator (mulberry32): the same strings on every run. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Characters that make plain text, mostly, and some that start or make constructs around them. */
const PLAIN = [...'awWps 1 9.,;:!?\'"()-é漢xX'];
const OTHER = [...'_*`#>[]<&\\~|$%{}/@+=\t\n'];
const pick = (next: () => number, list: string[]) => list[Math.floor(next() * list.length)];

describe('plain text read without the parser', () => {
  it('is what the parser makes of it, for every line it takes (20,000 generated lines)', () => {
    const next = random(42);
    let taken = 0;
    for (let i = 0; i < 20_000; i++) {
      const length = 1 + Math.floor(next() * 24);
      const line = Array.from({ length }, () => pick(next, next() < 0.97 ? PLAIN : OTHER)).join('');
      const fast = plainTextDocument(line);
      if (fast === undefined) continue;
      taken++;
      expect({ line, ...fast }).toEqual({ line, ...markdownToDocument(line) });
      const written = plainTextMarkdown(line);
      if (written !== undefined)
        expect({ line, written }).toEqual({ line, written: documentToMarkdown(fast.document) });
    }
    expect(taken).toBeGreaterThan(2_000);
  });

  it('takes sentences, and leaves whatever starts or makes a construct to the parser', () => {
    for (const line of ['Comment 12: please check this.', 'Looks good (to me)!', 'Déjà vu, 漢字 - ok?'])
      expect(plainTextDocument(line)).toEqual(markdownToDocument(line));
    for (const line of [
      '1. First',
      '2) Second',
      'See www.example.com',
      'Two  spaces',
      'Trailing ',
      ' Leading',
      'A *strong* word',
      'https://example.com',
      'Line\nbreak',
      '- item',
      '',
    ])
      expect(plainTextDocument(line)).toBeUndefined();
  });
});
