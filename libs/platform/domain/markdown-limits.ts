/**
 * Bounds on the shape of Markdown given to convert, checked by one cheap pass over its lines before it
 * is parsed: Markdown that nests or repeats past them makes the parser (micromark, whose attention and
 * label resolution grow with the square of what is open) or the conversion take minutes or overflow the
 * stack, whatever its size. A real page stays far within them: a page of a mebibyte with thousands of
 * headings, lists and links passes.
 */
export interface MarkdownLimits {
  /** Block quotes and list items open on one line, and link brackets open in one paragraph. */
  maxNesting: number;
  /** The longest run of one emphasis delimiter (`*`, `_`, `~`) outside code; thematic breaks aside. */
  maxDelimiterRun: number;
  /** Emphasis delimiters in one paragraph, outside code. */
  maxDelimiters: number;
  maxHeadings: number;
  /** Links, images and link reference definitions. */
  maxLinks: number;
  /** Lines in block quotes or starting list items. */
  maxContainerLines: number;
  /** Footnote references and definitions. */
  maxFootnotes: number;
  /** Nodes of the document made (blocks, inlines, texts and leaves): what footnotes expand to included. */
  maxNodes: number;
}

export const DEFAULT_MARKDOWN_LIMITS: MarkdownLimits = {
  maxNesting: 32,
  maxDelimiterRun: 64,
  maxDelimiters: 10_000,
  maxHeadings: 20_000,
  maxLinks: 30_000,
  maxContainerLines: 30_000,
  maxFootnotes: 5_000,
  maxNodes: 1_000_000,
};
