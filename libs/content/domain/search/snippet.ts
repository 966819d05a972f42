/** What a search result shows of a section: where the query's terms are, and an excerpt around them. */
import { eachToken, type Token, tokens } from './analysis';

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
  const wanted = new Set(queryTerms);
  const enough = Math.min(holding ?? wanted.size, wanted.size);
  const hits: Token[] = [];
  for (const token of eachToken(text, language)) {
    if (!wanted.has(token.term)) continue;
    hits.push(token);
    const window = new Set<string>();
    for (let i = hits.length - 1; i >= 0 && token.end - hits[i].start <= maxLength; i--)
      window.add(hits[i].term);
    if (window.size >= enough) break;
  }
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
  const excerpt = text.slice(start, end).replace(/\s+/g, ' ').trim();
  return `${start > 0 ? ELLIPSIS : ''}${excerpt}${end < text.length ? ELLIPSIS : ''}`;
}

const isLowSurrogate = (text: string, at: number) => /[\uDC00-\uDFFF]/.test(text.charAt(at));
