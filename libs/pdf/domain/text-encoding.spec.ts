import { textEncoder } from './text-encoding';

/** Latin-1's printable characters and the typographic signs of WinAnsi, as the standard fonts have them. */
const WIN_ANSI = [
  ...Array.from({ length: 0x7f - 0x20 }, (_, i) => 0x20 + i),
  ...Array.from({ length: 0x100 - 0xa0 }, (_, i) => 0xa0 + i),
  ...[...'ŒœŠšŸŽžƒˆ˜–—‘’‚“”„†‡•…‰‹›€™'].map((c) => c.codePointAt(0) as number),
];

describe('textEncoder', () => {
  const encode = textEncoder(WIN_ANSI);

  it('keeps what the set holds', () => {
    expect(encode('Plain “quoted” text — café, Œuvre, 10 €…')).toBe(
      'Plain “quoted” text — café, Œuvre, 10 €…',
    );
  });

  it('composes, decomposes and spells out what it can', () => {
    expect(encode('e\u0301')).toBe('é');
    expect(encode('ő ﬁ Ａ x² → ≤ −1')).toBe('o fi A x² -> <= -1');
  });

  it('replaces one character a user sees by one ?', () => {
    expect(encode('a 👍🏽 b 👨‍👩‍👧 c 日本')).toBe('a ? b ? c ??');
    expect(encode('❤️')).toBe('?');
  });

  it('drops invisible and control characters, keeps line feeds, makes tabs spaces', () => {
    expect(encode('a\u200bb\u0007c\u00add\te\nf')).toBe('abcd e\nf');
  });
});
