/**
 * The PDF standard fonts encode WinAnsi (Latin-1 and a few typographic signs) only: text is brought into
 * that set before it is measured and drawn. What has no near equivalent there (emoji, CJK, …) becomes
 * `?`, one per user-perceived character, rather than failing the render.
 */

/** What a character that cannot be written becomes. */
export const REPLACEMENT = '?';

/** Signs with an ASCII spelling that decomposition does not give (`→` is `->`, not `?`). */
const SPELLINGS: Record<string, string> = {
  '\u2190': '<-',
  '\u2192': '->',
  '\u2194': '<->',
  '\u21d0': '<=',
  '\u21d2': '=>',
  '\u21d4': '<=>',
  '\u2264': '<=',
  '\u2265': '>=',
  '\u2260': '!=',
  '\u2248': '~',
  '\u2212': '-',
  '\u2010': '-',
  '\u2011': '-',
  '\u2012': '-',
  '\u2015': '-',
  '\u2043': '-',
  '\u2032': "'",
  '\u2033': '"',
  '\u2713': 'v',
  '\u2714': 'v',
  '\u2717': 'x',
  '\u2718': 'x',
  '\u25cf': '\u2022',
  '\u25aa': '\u2022',
  '\u25e6': 'o',
  '\u2023': '>',
  '\u2039': '<',
};

/** Characters that show nothing: zero-width spaces and joiners, variation selectors, the BOM. */
const INVISIBLE = /[\u200b-\u200d\u2060\ufeff]|\p{Variation_Selector}/gu;
/** Control characters other than tab and line feed (which callers handle), C1 controls, soft hyphen. */
const CONTROL = /(?!\n)[\p{Cc}\u00ad]/gu;
const COMBINING = /\p{M}/gu;

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/**
 * A function bringing text into the characters `charset` holds (code points). Tabs become a space; line
 * feeds are kept (callers split lines first).
 */
export function textEncoder(charset: Iterable<number>): (text: string) => string {
  const known = new Set(charset);
  const encodable = (text: string) => {
    for (const char of text) if (char !== '\n' && !known.has(char.codePointAt(0) as number)) return false;
    return true;
  };
  const cache = new Map<string, string>();
  const replace = (grapheme: string): string => {
    const visible = grapheme.replace(INVISIBLE, '');
    if (encodable(visible)) return visible;
    const spelled = SPELLINGS[visible];
    if (spelled !== undefined && encodable(spelled)) return spelled;
    // Compatibility decomposition without accents: `ő` is `o`, `ﬁ` is `fi`, a full-width `Ａ` is `A`.
    const plain = visible.normalize('NFKD').replace(COMBINING, '');
    if (plain !== '' && encodable(plain)) return plain;
    return REPLACEMENT;
  };
  return (text: string): string => {
    const clean = text.replace(/\t/g, ' ').replace(CONTROL, '').normalize('NFC');
    if (encodable(clean)) return clean;
    let out = '';
    for (const { segment } of graphemes.segment(clean)) {
      let written = cache.get(segment);
      if (written === undefined) {
        written = replace(segment);
        cache.set(segment, written);
      }
      out += written;
    }
    return out;
  };
}
