import { childrenOf, type Document, type DocumentNode } from '@app/documents/document/document';
import { documentText } from '@app/documents/document/document-text';

/** The most characters of a block's text a comment keeps as its preview. */
export const PREVIEW_MAX = 280;

/** The page a comment was made on, as it was then: what `target.page` shows once the page is gone. */
export interface PageAt {
  title: string;
  path?: string;
  /** The hash of its body then: a page whose body has another is outdated for the comment. */
  documentId?: string;
}

function find(nodes: readonly DocumentNode[], key: string): DocumentNode | undefined {
  for (const node of nodes) {
    if ((node as { key?: string }).key === key) return node;
    const inner = find(childrenOf(node), key);
    if (inner) return inner;
  }
  return undefined;
}

/** The text of the node `key` of a page's body (its preview), or undefined when the body has no such node. */
export function nodePreview(document: Document, key: string): string | undefined {
  const node = find(document.nodes as DocumentNode[], key);
  if (!node) return undefined;
  const text = documentText({ ...document, nodes: [node] } as Document)
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > PREVIEW_MAX ? `${text.slice(0, PREVIEW_MAX - 1)}…` : text;
}
