import type { Link, ListItem, Nodes, Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { folderOf, joinPath } from './paths';

/** A page of SUMMARY.md: `* [Title](path/to/page.md "Link title")`, its nested list its children. */
export interface SummaryPage {
  kind: 'page';
  title: string;
  /** The Markdown file, relative to the documentation's root (decoded, no anchor). */
  file: string;
  /** GitBook's "page link title", the quoted title of the link, when there is one. */
  linkTitle?: string;
  children: SummaryPage[];
}

/** A `## Heading` of SUMMARY.md: a page group holding the pages listed below it. */
export interface SummaryGroup {
  kind: 'group';
  title: string;
  children: SummaryPage[];
}

export type SummaryEntry = SummaryPage | SummaryGroup;

/** What SUMMARY.md says, and the entries it has that name no page of the repository's (as text). */
export interface Summary {
  entries: SummaryEntry[];
  skipped: string[];
}

const textOf = (node: Nodes): string => {
  if (node.type === 'text' || node.type === 'inlineCode') return node.value;
  return 'children' in node ? (node.children as Nodes[]).map(textOf).join('') : '';
};

const decode = (text: string): string => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

/** A URL with a scheme (`https:`, `mailto:`) or from the top of a host: no file of the repository. */
export const isExternal = (url: string): boolean => /^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('/');

/**
 * SUMMARY.md read as GitBook's Git Sync does: a heading 1 is the table's own title and is ignored, a
 * heading 2 or deeper starts a page group, every list item holding a link is a page (its text the title,
 * its nested lists its children). `summaryPath` is where the file is, relative to the root: links are
 * relative to its folder. Items without a link to a Markdown file of the repository are `skipped`.
 */
export function parseSummary(markdown: string, summaryPath = 'SUMMARY.md'): Summary {
  const root: Root = fromMarkdown(markdown);
  const folder = folderOf(summaryPath);
  const entries: SummaryEntry[] = [];
  const skipped: string[] = [];
  let group: SummaryGroup | undefined;

  const pageOf = (item: ListItem): SummaryPage[] => {
    const nested = item.children.flatMap((child) =>
      child.type === 'list' ? child.children.flatMap(pageOf) : [],
    );
    const lead = item.children.find((child) => child.type === 'paragraph');
    const link = lead?.children.find((child): child is Link => child.type === 'link');
    const target = link && decode(link.url.split('#')[0]);
    const file = target && !isExternal(link.url) ? joinPath(folder, target) : undefined;
    if (!link || !file) {
      skipped.push(lead ? textOf(lead).trim() || '(empty item)' : '(empty item)');
      // Its children are kept, one level up.
      return nested;
    }
    return [
      {
        kind: 'page',
        title: textOf(link).trim(),
        file,
        ...(link.title ? { linkTitle: link.title } : {}),
        children: nested,
      },
    ];
  };

  for (const node of root.children) {
    if (node.type === 'heading' && node.depth > 1) {
      group = { kind: 'group', title: textOf(node).trim(), children: [] };
      entries.push(group);
    } else if (node.type === 'list') {
      const pages = node.children.flatMap(pageOf);
      if (group) group.children.push(...pages);
      else entries.push(...pages);
    }
  }
  return { entries, skipped };
}
