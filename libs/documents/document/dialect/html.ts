/**
 * The bits of HTML GitBook's Markdown dialect writes (`<figure>`, `<details>`, `<mark>`, button links),
 * read with parse5 (an HTML parser to the WHATWG standard, so attributes, quoting and character
 * references are read as a browser reads them) and written back in GitBook's form.
 */
import type { PhrasingContent } from 'mdast';
import { type DefaultTreeAdapterMap, parseFragment } from 'parse5';

export type HtmlNode = DefaultTreeAdapterMap['childNode'];
export type HtmlElement = DefaultTreeAdapterMap['element'];

/** The top-level nodes of an HTML fragment, with where each element's end tag is (if it has one). */
export const parseHtml = (html: string): HtmlNode[] =>
  parseFragment(html, { sourceCodeLocationInfo: true }).childNodes;

export const isElement = (node: HtmlNode): node is HtmlElement => 'tagName' in node;

/** Whitespace-only text (between tags) aside. */
export const significant = (nodes: readonly HtmlNode[]): HtmlNode[] =>
  nodes.filter((node) => !(node.nodeName === '#text' && 'value' in node && node.value.trim() === ''));

export const attributes = (element: HtmlElement): Map<string, string> =>
  new Map(element.attrs.map((a) => [a.name, a.value]));

/** Whether the element's end tag is in the source (parse5 closes what is left open). */
export const closed = (element: HtmlElement): boolean => element.sourceCodeLocation?.endTag !== undefined;

/**
 * The one start tag an inline HTML node holds (`<mark style="…">`), or undefined: the element's name and
 * attributes, when the node is exactly one start tag of that name.
 */
export function startTag(html: string, name: string): Map<string, string> | undefined {
  if (!new RegExp(`^<${name}[\\s>/]`, 'i').test(html) || !html.endsWith('>')) return undefined;
  const nodes = parseHtml(html);
  const [element] = nodes;
  if (nodes.length !== 1 || !element || !isElement(element) || element.tagName !== name) return undefined;
  if (element.childNodes.length > 0 || closed(element)) return undefined;
  return attributes(element);
}

export const isEndTag = (html: string, name: string): boolean => html.trim().toLowerCase() === `</${name}>`;

const TEXT_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
export const escapeText = (text: string) => text.replace(/[&<>]/g, (c) => TEXT_ESCAPES[c]);
export const escapeAttribute = (text: string) => text.replace(/[&<>"]/g, (c) => TEXT_ESCAPES[c]);

const MARK_OF_TAG: Record<string, 'strong' | 'emphasis' | 'delete'> = {
  strong: 'strong',
  b: 'strong',
  em: 'emphasis',
  i: 'emphasis',
  s: 'delete',
  del: 'delete',
  strike: 'delete',
};

/**
 * The inline HTML GitBook writes in captions and summaries (text, bold, italic, strikethrough, code,
 * links, line breaks) as Markdown phrasing, or undefined for anything else (then the construct stays HTML).
 */
export function htmlToPhrasing(nodes: readonly HtmlNode[]): PhrasingContent[] | undefined {
  const out: PhrasingContent[] = [];
  for (const node of nodes) {
    if (node.nodeName === '#text' && 'value' in node) {
      out.push({ type: 'text', value: node.value });
      continue;
    }
    if (!isElement(node)) return undefined;
    const attrs = attributes(node);
    const mark = MARK_OF_TAG[node.tagName];
    if (mark && attrs.size === 0) {
      const children = htmlToPhrasing(node.childNodes);
      if (!children) return undefined;
      out.push({ type: mark, children } as PhrasingContent);
    } else if (node.tagName === 'code' && attrs.size === 0) {
      if (!node.childNodes.every((c) => c.nodeName === '#text')) return undefined;
      out.push({
        type: 'inlineCode',
        value: node.childNodes.map((c) => ('value' in c ? c.value : '')).join(''),
      });
    } else if (node.tagName === 'a' && attrs.has('href') && attrs.size === 1) {
      const children = htmlToPhrasing(node.childNodes);
      if (!children) return undefined;
      out.push({ type: 'link', url: attrs.get('href') ?? '', title: null, children } as PhrasingContent);
    } else if (node.tagName === 'br' && attrs.size === 0) {
      out.push({ type: 'break' });
    } else return undefined;
  }
  return out;
}

const TAG_OF_MARK = { strong: 'strong', emphasis: 'em', delete: 's' } as const;

/** Markdown phrasing as the inline HTML htmlToPhrasing reads; what it has no tag for gives its text. */
export function phrasingToHtml(nodes: readonly PhrasingContent[]): string {
  return nodes
    .map((node): string => {
      switch (node.type) {
        case 'text':
          return escapeText(node.value);
        case 'strong':
        case 'emphasis':
        case 'delete': {
          const tag = TAG_OF_MARK[node.type];
          return `<${tag}>${phrasingToHtml(node.children)}</${tag}>`;
        }
        case 'inlineCode':
          return `<code>${escapeText(node.value)}</code>`;
        case 'link':
          return `<a href="${escapeAttribute(node.url)}">${phrasingToHtml(node.children)}</a>`;
        case 'break':
          return '<br>';
        case 'inlineMath':
          return escapeText(`$$${node.value}$$`);
        case 'html':
          return node.value;
        default:
          return 'children' in node ? phrasingToHtml(node.children as PhrasingContent[]) : '';
      }
    })
    .join('');
}
