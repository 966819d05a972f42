/** What a search result shows of a section: where the query's terms are, and an excerpt around them. */
import { scanTerms, type Token, tokens } from './analysis';

/** A span of the original text (UTF-16 offsets, `end` exclusive). */
export interface Highlight {
  start: number;
  end: number;
}

/** The length of a section's `body` in a result, as GitBook's search shows about two lines. */
export const SNIPPET_LENGTH = 160;
/** Context kept before the first hit of an excerpt, so that it does not start on the hit. */
const LEAD = 30;
const ELLIPSIS = '…';

/** The words of `text` that are query terms (as `terms` reads both), in order. */
export function highlights(text: string, queryTerms: readonly string[], language?: string): Highlight[] {
  const wanted = new Set(queryTerms);
  const spans: Highlight[] = [];
  for (const { term, start, end } of tokens(text, language)) {
    if (!wanted.has(term)) continue;
    const last = spans[spans.length - 1];
    // CJK pairs overlap, and a folded symbol gives several terms of one span: merge them.
    if (last && start <= last.end) last.end = Math.max(last.end, end);
    else spans.push({ start, end });
  }
  return spans;
}

/** Terms by number: a text analysed once is searched for a query's terms by comparing numbers. */
export class TermIds {
  private readonly ids = new Map<string, number>();
  private readonly terms: string[] = [];

  id(term: string): number {
    let id = this.ids.get(term);
    if (id === undefined) {
      id = this.terms.length;
      this.terms.push(term);
      this.ids.set(term, id);
    }
    return id;
  }

  /** The number of a term met already; undefined for one no text analysed with these ids holds. */
  known(term: string): number | undefined {
    return this.ids.get(term);
  }

  term(id: number): string {
    return this.terms[id];
  }
}

/** A text's terms with their spans, as `tokens` reads them: analysed once for the snippets of many queries. */
export interface AnalysedText {
  text: string;
  /** Its terms in order, by their number in `ids`. */
  terms: Int32Array;
  /** The span of term `i`: from `spans[2 * i]` to `spans[2 * i + 1]`. */
  spans: Uint32Array;
  ids: TermIds;
}

/** `text` analysed, its terms numbered in `ids` (texts analysed with the same ids share the numbers). */
export function analyse(text: string, language?: string, ids = new TermIds()): AnalysedText {
  const terms: number[] = [];
  const spans: number[] = [];
  scanTerms(text, language, (term, start, end) => {
    terms.push(ids.id(term));
    spans.push(start, end);
    return false;
  });
  return { text, terms: Int32Array.from(terms), spans: Uint32Array.from(spans), ids };
}

/**
 * An excerpt of `text` of at most `maxLength` characters (ellipses aside) around the passage holding
 * the most distinct query terms (the earliest of equals); the text's start when none is there. Cut at
 * spaces, whitespace collapsed (the text has a line per block). Reading stops at the first passage that
 * holds every query term the text has (`holding`, when the index tells): none can hold more, and a long
 * section is mostly not read.
 */
export function snippet(
  text: string,
  queryTerms: readonly string[],
  language?: string,
  maxLength = SNIPPET_LENGTH,
  holding?: number,
): string {
  const found = hitReader(queryTerms, maxLength, holding);
  scanTerms(text, language, found.read);
  return excerpt(text, found.hits, maxLength);
}

/** `snippet` of a text analysed already (in the language of the query's terms). */
export function snippetOf(
  analysed: AnalysedText,
  queryTerms: readonly string[],
  maxLength = SNIPPET_LENGTH,
  holding?: number,
): string {
  const found = hitReader(queryTerms, maxLength, holding);
  const { terms, spans, ids } = analysed;
  // A query term that no text analysed with these ids holds is not in this one.
  const wanted: number[] = [];
  for (const term of new Set(queryTerms)) {
    const id = ids.known(term);
    if (id !== undefined) wanted.push(id);
  }
  if (wanted.length > 0) {
    for (let i = 0; i < terms.length; i++) {
      if (!wanted.includes(terms[i])) continue;
      if (found.read(ids.term(terms[i]), spans[2 * i], spans[2 * i + 1])) break;
    }
  }
  return excerpt(analysed.text, found.hits, maxLength);
}

/** The query terms read in a text, in order, up to the first passage holding as many as the text has. */
function hitReader(queryTerms: readonly string[], maxLength: number, holding: number | undefined) {
  const wanted = new Set(queryTerms);
  const enough = Math.min(holding ?? wanted.size, wanted.size);
  const hits: Token[] = [];
  const read = (term: string, start: number, end: number): boolean => {
    if (!wanted.has(term)) return false;
    hits.push({ term, start, end });
    const window = new Set<string>();
    for (let i = hits.length - 1; i >= 0 && end - hits[i].start <= maxLength; i--) window.add(hits[i].term);
    return window.size >= enough;
  };
  return { hits, read };
}

/** The excerpt of `text` around the best passage of `hits`. */
function excerpt(text: string, hits: readonly Token[], maxLength: number): string {
  let best = { start: 0, end: 0, distinct: 0, count: 0 };
  for (let i = 0; i < hits.length; i++) {
    const inWindow = hits.slice(i).filter((hit) => hit.end - hits[i].start <= maxLength);
    const distinct = new Set(inWindow.map((hit) => hit.term)).size;
    if (distinct > best.distinct || (distinct === best.distinct && inWindow.length > best.count)) {
      const end = Math.max(...inWindow.map((hit) => hit.end), hits[i].end);
      best = { start: hits[i].start, end, distinct, count: inWindow.length };
    }
  }
  // Room left around the hits goes before them (up to LEAD), the rest after.
  const room = Math.max(0, maxLength - (best.end - best.start));
  let start = Math.max(0, best.start - Math.min(LEAD, room));
  let end = Math.min(text.length, start + maxLength);
  if (start > 0) {
    const space = text.slice(start, best.start).search(/\s/);
    if (space >= 0) start += space + 1;
  }
  if (end < text.length) {
    const space = text.slice(Math.max(best.end, start), end + 1).search(/\s\S*$/);
    if (space >= 0) end = Math.max(best.end, start) + space;
  }
  // A cut inside a word with no space near gets at least not to split a surrogate pair.
  if (isLowSurrogate(text, start)) start--;
  if (isLowSurrogate(text, end)) end--;
  const passage = text.slice(start, end).replace(/\s+/g, ' ').trim();
  return `${start > 0 ? ELLIPSIS : ''}${passage}${end < text.length ? ELLIPSIS : ''}`;
}

const isLowSurrogate = (text: string, at: number) => /[\uDC00-\uDFFF]/.test(text.charAt(at));
