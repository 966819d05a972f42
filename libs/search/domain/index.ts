/** Full-text search of a space's pages: text analysis, postings to store per term, ranking, excerpts. */
export { DEFAULT_LANGUAGE, fold, quotedPhrases, type Token, terms, tokens } from './analysis';
export {
  FIELD_GAP,
  type IndexedPage,
  type IndexedSection,
  MAX_POSITIONS,
  type Posting,
  pageForIndex,
  postings,
} from './indexing';
export {
  type PackedPostings,
  packPositions,
  packPostings,
  positionsAt,
  postingOrder,
  unpackPostings,
} from './packed';
export {
  B,
  byRelevance,
  closeness,
  holdsSequence,
  type IndexStats,
  impact,
  K1,
  longestRun,
  PROXIMITY_WEIGHT,
  PROXIMITY_WINDOW,
  type RankedPage,
  type RankedSection,
  type RankOptions,
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
export {
  type Candidates,
  candidatesFor,
  type PageTerms,
  PHRASE_CANDIDATES,
  PHRASE_SCAN,
  type PhrasePostings,
  TermIndex,
  type TermPostings,
  type TermSource,
} from './term-index';
