/**
 * The one Markdown dialect of docs-hub, read and written by the unified family: CommonMark with GFM
 * (tables, task lists, strikethrough, autolinks, footnotes), YAML frontmatter, and GitBook's dialect:
 * its Liquid-style block tags (dialect/liquid-tags.ts).
 */
import type { Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { frontmatterFromMarkdown, frontmatterToMarkdown } from 'mdast-util-frontmatter';
import { gfmFromMarkdown, gfmToMarkdown } from 'mdast-util-gfm';
import { type Join, toMarkdown } from 'mdast-util-to-markdown';
import { frontmatter } from 'micromark-extension-frontmatter';
import { gfm } from 'micromark-extension-gfm';
import { liquidTagFromMarkdown, liquidTagSyntax, liquidTagToMarkdown } from './dialect/liquid-tags';

export function parseMarkdown(markdown: string): Root {
  return fromMarkdown(markdown, {
    extensions: [gfm(), frontmatter(['yaml']), liquidTagSyntax()],
    mdastExtensions: [gfmFromMarkdown(), frontmatterFromMarkdown(['yaml']), liquidTagFromMarkdown()],
  });
}

export function serializeMarkdown(root: Root): string {
  return toMarkdown(root, {
    extensions: [gfmToMarkdown(), frontmatterToMarkdown(['yaml']), liquidTagToMarkdown()],
    join: [spreadWhereForced],
  });
}

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
