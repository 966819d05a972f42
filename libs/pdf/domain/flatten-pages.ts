/** A page tree (as `listPages` gives it) in reading order, for rendering as one PDF. */

export interface PageTreeNode {
  title: string;
  type: string;
  documentId?: string;
  pages: unknown[];
}

export interface FlatPage {
  title: string;
  /** 0 for a top-level page, its parent's depth + 1 below. */
  depth: number;
  documentId?: string;
}

/**
 * The pages of a page tree in reading order (each page, then its children), with their depth. Link pages
 * are skipped: they point elsewhere and hold no content. Documents and groups are kept, and computed
 * pages (whose body is a document too); a group has no `documentId`.
 */
export function flattenPages(nodes: readonly PageTreeNode[]): FlatPage[] {
  const out: FlatPage[] = [];
  const visit = (list: readonly PageTreeNode[], depth: number) => {
    for (const node of list) {
      if (node.type === 'link') continue;
      out.push({
        title: node.title,
        depth,
        ...(node.documentId === undefined ? {} : { documentId: node.documentId }),
      });
      visit(node.pages as PageTreeNode[], depth + 1);
    }
  };
  visit(nodes, 0);
  return out;
}
