import type { Document } from '@app/documents/document';

type Node = {
  object?: string;
  type?: string;
  data?: Record<string, unknown>;
  nodes?: Node[];
  leaves?: Leaf[];
};
type Leaf = { text: string; markdown?: string };

const tagOf = (html: string): string | undefined => {
  const match = /^\s*<([A-Za-z][\w-]*)([^>]*)>?/.exec(html);
  // A `<summary>` is part of its `<details>`, named already.
  if (!match || match[1].toLowerCase() === 'summary') return undefined;
  if (match[1].toLowerCase() === 'a' && /\bclass\s*=\s*["'][^"']*\bbutton\b/.test(match[2])) return 'button';
  return `<${match[1].toLowerCase()}>`;
};

/**
 * The constructs of GitBook's Markdown a converted page keeps as text rather than as blocks: HTML (a
 * block shown as its source, an inline tag such as `<mark>`, a button), a `{% tag %}` no block reads,
 * `$$` math. Each named once, in the order met. Code blocks that are code are not looked into.
 */
export function constructsLeftAsText(document: Document): string[] {
  const found = new Set<string>();
  const visit = (node: Node): void => {
    if (node.type === 'code') {
      if (node.data?.markdown === 'html') {
        const first = node.nodes?.[0]?.nodes?.[0]?.leaves?.[0]?.text ?? '';
        const tag = tagOf(first);
        if (tag) found.add(tag);
      }
      return;
    }
    for (const leaf of node.leaves ?? []) {
      if (leaf.markdown === 'html') {
        const tag = tagOf(leaf.text);
        if (tag) found.add(tag);
        continue;
      }
      for (const match of leaf.text.matchAll(/\{%-?\s*([\w-]+)/g)) found.add(`{% ${match[1]} %}`);
      if (leaf.text.includes('$$')) found.add('$$ math');
    }
    for (const child of node.nodes ?? []) visit(child);
    for (const fragment of (node as { fragments?: Node[] }).fragments ?? []) visit(fragment);
  };
  for (const node of document.nodes as unknown as Node[]) visit(node);
  return [...found];
}
