/** What a page gives the search index: its text by section, and a posting per term. */
import {
  childrenOf,
  type Document,
  type DocumentNode,
  documentHeadings,
  documentText,
  fragmentsOf,
} from '@app/documents/document';
import { inlineText } from '@app/documents/document/document-text';
import { terms } from './analysis';

/** A part of a page between two headings: the heading's anchor and text, and the text under it. */
export interface IndexedSection {
  /** The heading's anchor (as in the page URL's `#…`), or `''` for what comes before the first heading. */
  id: string;
  title: string;
  body: string;
}

/** What a page contributes to the index: its title, and its sections (split at headings), each with its text. */
export interface IndexedPage {
  pageId: string;
  title: string;
  path?: string;
  sections: IndexedSection[];
}

/**
 * One posting per (term, page): how often and where. Title hits weigh more when ranking; `sections` tells
 * which sections to show. Small enough to be one stored document.
 */
export interface Posting {
  term: string;
  pageId: string;
  titleHits: number;
  /** Hits in the page's content, headings included (the sum of `sections`). */
  bodyHits: number;
  /** Section id → hits in its heading and text; only sections with hits. */
  sections: Record<string, number>;
  /** The page's term count (title and content), for length normalization. */
  length: number;
  /**
   * Where the term is in the page, ascending: its place among the page's terms (stop words are not
   * terms), the title first, then each section's heading and text, apart by `FIELD_GAP` so that no
   * phrase runs from one into the next. The first `MAX_POSITIONS` only; absent when unknown (postings
   * stored before positions were), which no phrase matches.
   */
  positions?: readonly number[];
}

/** Places skipped between the title, a heading and the text under it: more than any proximity counts. */
export const FIELD_GAP = 16;
/** Positions kept per term and page: a phrase is found among a term's first occurrences. */
export const MAX_POSITIONS = 128;

const isHeading = (node: DocumentNode) =>
  node.object === 'block' &&
  (node.type === 'heading-1' || node.type === 'heading-2' || node.type === 'heading-3');

/** Whether a block holds a heading where `documentHeadings` looks: in blocks, not in inlines' fragments. */
const hasHeading = (node: DocumentNode): boolean =>
  node.object === 'block' &&
  (isHeading(node) ||
    childrenOf(node).some(hasHeading) ||
    fragmentsOf(node).some((fragment) => fragment.nodes.some(hasHeading)));

/** A page's title and sections. A page without a document (a link, a group) has its title only. */
export function pageForIndex(
  page: { id: string; title: string; path?: string },
  document: Document | undefined,
): IndexedPage {
  return {
    pageId: page.id,
    title: page.title,
    ...(page.path === undefined ? {} : { path: page.path }),
    sections: document ? sectionsOf(document) : [],
  };
}

/**
 * The document cut at every heading, nested ones too (in a quote, a tab, an expandable), in the order
 * `documentHeadings` lists them, whose anchors they take. A block without headings gives its text as
 * `documentText` reads it; a block holding one is opened so that the heading starts its section there.
 */
function sectionsOf(document: Document): IndexedSection[] {
  const headings = documentHeadings(document);
  const sections: Array<{ id: string; title: string; lines: string[] }> = [{ id: '', title: '', lines: [] }];
  const add = (line: string) => {
    if (line) sections[sections.length - 1].lines.push(line);
  };
  const visit = (nodes: readonly DocumentNode[]) => {
    for (const node of nodes) {
      if (node.object !== 'block') continue;
      if (isHeading(node)) {
        const heading = headings[sections.length - 1];
        sections.push({ id: heading.anchor, title: heading.text, lines: [] });
        continue;
      }
      if (!hasHeading(node)) {
        add(documentText({ ...document, nodes: [node] as Document['nodes'] }));
        continue;
      }
      const children = childrenOf(node);
      if (children.some((child) => child.object !== 'block')) add(inlineText(children));
      visit(children);
      for (const fragment of fragmentsOf(node)) visit(fragment.nodes);
    }
  };
  visit(document.nodes as DocumentNode[]);
  const [intro, ...rest] = sections.map(({ lines, ...section }) => ({ ...section, body: lines.join('\n') }));
  // An intro with no text is no section; a heading with nothing under it still is (its title matches).
  return intro.body ? [intro, ...rest] : rest;
}

/** The page's postings, one per distinct term, in term order. */
export function postings(page: IndexedPage, language?: string): Posting[] {
  interface Entry {
    titleHits: number;
    bodyHits: number;
    sections: Map<string, number>;
    positions: number[];
  }
  const byTerm = new Map<string, Entry>();
  const entry = (term: string) => {
    let found = byTerm.get(term);
    if (!found) {
      found = { titleHits: 0, bodyHits: 0, sections: new Map<string, number>(), positions: [] };
      byTerm.set(term, found);
    }
    return found;
  };
  let length = 0;
  let at = 0;
  const place = (found: Entry) => {
    if (found.positions.length < MAX_POSITIONS) found.positions.push(at);
    at++;
    length++;
  };
  for (const term of terms(page.title, language)) {
    const found = entry(term);
    found.titleHits++;
    place(found);
  }
  for (const section of page.sections) {
    for (const text of [section.title, section.body]) {
      at += FIELD_GAP;
      for (const term of terms(text, language)) {
        const found = entry(term);
        found.bodyHits++;
        found.sections.set(section.id, (found.sections.get(section.id) ?? 0) + 1);
        place(found);
      }
    }
  }
  return [...byTerm.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([term, { titleHits, bodyHits, sections, positions }]) => ({
      term,
      pageId: page.pageId,
      titleHits,
      bodyHits,
      // fromEntries defines own properties, so an anchor such as `__proto__` stays a plain key.
      sections: Object.fromEntries(sections),
      length,
      positions,
    }));
}
