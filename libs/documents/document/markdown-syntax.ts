/**
 * The one Markdown dialect of docs-hub, read and written by the unified family: CommonMark with GFM
 * (tables, task lists, strikethrough, autolinks, footnotes), YAML frontmatter, and GitBook's dialect:
 * its Liquid-style block tags (dialect/liquid-tags.ts) and `$$` math (dialect/math.ts; GitBook's HTML
 * constructs are read from the HTML nodes, dialect/html-*.ts).
 */
import type { Root, RootContent } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { frontmatterFromMarkdown, frontmatterToMarkdown } from 'mdast-util-frontmatter';
import { gfmFromMarkdown, gfmToMarkdown } from 'mdast-util-gfm';
import { type Join, toMarkdown } from 'mdast-util-to-markdown';
import { frontmatter } from 'micromark-extension-frontmatter';
import { gfm } from 'micromark-extension-gfm';
import {
  type HtmlSplitBudget,
  htmlSplitBudget,
  liquidTagFromMarkdown,
  liquidTagSyntax,
  liquidTagToMarkdown,
  tagsOutOfHtml,
} from './dialect/liquid-tags';
import { mathFromMarkdown, mathSyntax, mathToMarkdown } from './dialect/math';

export function parseMarkdown(markdown: string): Root {
  const budget = htmlSplitBudget();
  return fromMarkdown(markdown, {
    extensions: [gfm(), frontmatter(['yaml']), liquidTagSyntax(), mathSyntax()],
    mdastExtensions: [
      gfmFromMarkdown(),
      frontmatterFromMarkdown(['yaml']),
      // Before the tags are paired: a tag line right after HTML is a tag (dialect/liquid-tags.ts).
      { transforms: [tagsOutOfHtml((rest) => htmlRest(rest, budget), budget)] },
      liquidTagFromMarkdown(),
      mathFromMarkdown(),
    ],
  });
}

/** The lines of a block of HTML from its first tag line on, read as flow content, tags left unpaired. */
function htmlRest(markdown: string, budget: HtmlSplitBudget): RootContent[] {
  return fromMarkdown(markdown, {
    extensions: [gfm(), liquidTagSyntax(), mathSyntax()],
    mdastExtensions: [
      gfmFromMarkdown(),
      { transforms: [tagsOutOfHtml((rest) => htmlRest(rest, budget), budget)] },
      { ...liquidTagFromMarkdown(), transforms: [] },
      mathFromMarkdown(),
    ],
  }).children;
}

export function serializeMarkdown(root: Root): string {
  return toMarkdown(root, WRITING);
}

/**
 * Characters that render as nothing or as a space, written as character references (`&#xA0;`) so
 * that the Markdown shows them: a no-break space, a soft hyphen, zero-width and joining characters.
 */
const INVISIBLE = ['\u00a0', '\u00ad', '\u200b', '\u200c', '\u200d', '\u2060', '\u202f', '\ufeff'];

/**
 * A table or a math block right after a container ending in a paragraph (a list in a list item, a
 * quote) would be read as that paragraph's lazy continuation: a blank line keeps it apart. The
 * library's own join does so for paragraphs, not for these.
 */
const apartFromLazyText: Join = (left, right) => {
  if (right.type !== 'table' && right.type !== 'math') return undefined;
  let tail: Parameters<Join>[0] = left;
  while (
    (tail.type === 'blockquote' || tail.type === 'list' || tail.type === 'listItem') &&
    tail.children.length > 0
  )
    tail = tail.children[tail.children.length - 1];
  return tail !== left && tail.type === 'paragraph' ? 1 : undefined;
};

/** The canonical form of some Markdown: what the library writes for what it reads. */
export const normalizeMarkdown = (markdown: string): string => serializeMarkdown(parseMarkdown(markdown));

const spreadItems = new WeakMap<object, boolean>();

/**
 * Documents have no loose and tight lists, so their Markdown is tight (`spread: false`). A tight item
 * still gets a blank line between some children (two paragraphs), and Markdown read back calls such an
 * item loose; writing it loose from the start (a blank line between all its children) is what the
 * library writes for that Markdown, so both conversions agree. This join runs before the library's own.
 */
const spreadWhereForced: Join = (_left, _right, parent, state) => {
  if (parent.type !== 'listItem' || parent.spread) return undefined;
  let spread = spreadItems.get(parent);
  if (spread === undefined) {
    const others = state.join.filter((join) => join !== spreadWhereForced);
    spread = parent.children.some((child, i) => {
      const next = parent.children[i + 1];
      return next !== undefined && blankLinesBetween(child, next, parent, others, state) > 0;
    });
    spreadItems.set(parent, spread);
  }
  return spread ? 1 : undefined;
};

/** The blank lines the library puts between two siblings (its `between`, without this module's join). */
function blankLinesBetween(
  left: Parameters<Join>[0],
  right: Parameters<Join>[1],
  parent: Parameters<Join>[2],
  joins: Join[],
  state: Parameters<Join>[3],
): number {
  for (let i = joins.length - 1; i >= 0; i--) {
    const result = joins[i](left, right, parent, state);
    if (result === true || result === false) return 1;
    if (typeof result === 'number') return result;
  }
  return 1;
}

/**
 * The writer's options, made once: the library compiles each unsafe pattern into a regular expression
 * kept on the pattern, so options made anew for each call compiled them all again (most of the cost
 * of writing a sentence). They hold no state of a call.
 */
const WRITING: Parameters<typeof toMarkdown>[1] = {
  extensions: [gfmToMarkdown(), frontmatterToMarkdown(['yaml']), liquidTagToMarkdown(), mathToMarkdown()],
  join: [spreadWhereForced, apartFromLazyText],
  unsafe: INVISIBLE.map((character) => ({ character, inConstruct: 'phrasing' as const })),
};
