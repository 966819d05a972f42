/** Full-text search of a space's pages: text analysis, postings to store per term, ranking, excerpts. */
export { DEFAULT_LANGUAGE, fold, type Token, terms, tokens } from './analysis';
export { type IndexedPage, type IndexedSection, type Posting, pageForIndex, postings } from './indexing';
export { type PackedPostings, packPostings, postingOrder, unpackPostings } from './packed';
export {
  B,
  type IndexStats,
  impact,
  K1,
  type RankedPage,
  type RankedSection,
  rank,
  sectionsOf,
  type TermMatch,
  TITLE_WEIGHT,
} from './ranking';
export {
  type AnalysedText,
  analyse,
  type Highlight,
  highlights,
  SNIPPET_LENGTH,
  snippet,
  snippetOf,
  TermIds,
} from './snippet';
export { type PageTerms, TermIndex, type TermPostings } from './term-index';
