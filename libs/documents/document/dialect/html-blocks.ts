/**
 * GitBook's block HTML: `<details>` + `<summary>` around Markdown is its expandable block, and
 * `<figure><img …><figcaption>…</figcaption></figure>` its image block with a caption. Markdown gives HTML
 * blocks as `html` nodes between the Markdown ones; an expandable is paired among siblings, its opening
 * (`<details>`, maybe `open`, with its `<summary>` in the same node or the next) and its `</details>`,
 * the siblings between being its body. Anything unpaired or not in GitBook's form stays raw HTML.
 */
import type { Html, PhrasingContent, RootContent } from 'mdast';
import { type Length, lengthOf, lengthText } from './attribute-values';
import {
  attributes,
  closed,
  escapeAttribute,
  type HtmlElement,
  htmlToPhrasing,
  isElement,
  isEndTag,
  parseHtml,
  phrasingToHtml,
  significant,
} from './html';

/** An expandable found among siblings: its title (inline content) and its body (the siblings between). */
export interface Details {
  type: 'details';
  open: boolean;
  summary: PhrasingContent[];
  children: (RootContent | Details)[];
}

/** The start of an expandable: `<details>` (or `<details open>`), and its summary if in the same node. */
function detailsStart(html: string): { open: boolean; summary?: PhrasingContent[] } | undefined {
  if (!/^<details[\s>]/i.test(html)) return undefined;
  const nodes = significant(parseHtml(html));
  const [details] = nodes;
  if (nodes.length !== 1 || !isElement(details) || details.tagName !== 'details' || closed(details))
    return undefined;
  const attrs = attributes(details);
  if (attrs.size > 1 || (attrs.size === 1 && attrs.get('open') !== '')) return undefined;
  const inner = significant(details.childNodes);
  if (inner.length === 0) return { open: attrs.has('open') };
  const summary = inner.length === 1 ? summaryOf(inner[0]) : undefined;
  return summary ? { open: attrs.has('open'), summary } : undefined;
}

function summaryOf(node: ReturnType<typeof parseHtml>[number]): PhrasingContent[] | undefined {
  if (!isElement(node) || node.tagName !== 'summary' || !closed(node) || node.attrs.length > 0)
    return undefined;
  return htmlToPhrasing(node.childNodes);
}

/** A `<summary>…</summary>` node alone. */
function summaryNode(html: string): PhrasingContent[] | undefined {
  if (!/^<summary[\s>]/i.test(html)) return undefined;
  const nodes = significant(parseHtml(html));
  return nodes.length === 1 ? summaryOf(nodes[0]) : undefined;
}

/**
 * Siblings with each expandable paired: an opening, its summary, the body and `</details>` become one
 * `Details`. One pass with a stack of open ones, so that many unpaired openings cost no more than paired
 * ones; `maxNesting` bounds how deep they nest (deeper ones stay HTML).
 */
export function pairDetails(children: readonly RootContent[], maxNesting = 32): (RootContent | Details)[] {
  interface Frame {
    start: Html[];
    details?: Details;
    out: (RootContent | Details)[];
  }
  const stack: Frame[] = [{ start: [], out: [] }];
  const top = () => stack[stack.length - 1];
  for (let i = 0; i < children.length; i++) {
    const node = children[i];
    if (node.type === 'html' && stack.length <= maxNesting) {
      const start = detailsStart(node.value);
      if (start) {
        const next = children[i + 1];
        const summary =
          start.summary ?? (next?.type === 'html' ? summaryNode(next.value) : undefined) ?? undefined;
        if (summary) {
          const nodes = start.summary ? [node] : [node, next as Html];
          if (!start.summary) i++;
          stack.push({
            start: nodes,
            details: { type: 'details', open: start.open, summary, children: [] },
            out: [],
          });
          continue;
        }
      }
    }
    if (node.type === 'html' && isEndTag(node.value, 'details') && stack.length > 1) {
      const frame = stack.pop() as Frame;
      top().out.push({ ...(frame.details as Details), children: frame.out });
      continue;
    }
    top().out.push(node);
  }
  while (stack.length > 1) {
    const frame = stack.pop() as Frame;
    top().out.push(...frame.start, ...frame.out);
  }
  return stack[0].out;
}

/** The HTML nodes of an expandable around its body, in GitBook's form (each apart, blank lines between). */
export function detailsStartHtml(open: boolean, summary: readonly PhrasingContent[]): Html[] {
  return [
    { type: 'html', value: open ? '<details open>' : '<details>' },
    { type: 'html', value: `<summary>${phrasingToHtml(summary)}</summary>` },
  ];
}

export const DETAILS_END: Html = { type: 'html', value: '</details>' };

/** An image block in GitBook's HTML form. */
export interface Figure {
  url: string;
  alt?: string;
  /** The `<img>`'s `width` and `height` (GitBook's image `Length`s), when they are lengths. */
  width?: Length;
  height?: Length;
  /** The caption's inline content; undefined when the figure has no caption. */
  caption?: PhrasingContent[];
}

/** The attributes of a figure's `<img>` that the image block holds; with another, the figure stays HTML. */
const IMAGE_ATTRIBUTES = new Set(['src', 'alt', 'width', 'height']);

/** The image's `width` and `height` that are lengths; others are dropped. */
function dimensions(attrs: Map<string, string>): Pick<Figure, 'width' | 'height'> {
  const out: Pick<Figure, 'width' | 'height'> = {};
  for (const name of ['width', 'height'] as const) {
    const value = attrs.get(name);
    const length = value === undefined ? undefined : lengthOf(value);
    if (length !== undefined) out[name] = length;
  }
  return out;
}

/**
 * `<figure><img src alt width height><figcaption><p>…</p></figcaption></figure>` alone in an HTML node,
 * or undefined.
 */
export function figureOf(html: string): Figure | undefined {
  if (!/^<figure[\s>]/i.test(html)) return undefined;
  const nodes = significant(parseHtml(html.trim()));
  const [figure] = nodes;
  if (nodes.length !== 1 || !isElement(figure) || figure.tagName !== 'figure' || figure.attrs.length > 0)
    return undefined;
  if (!closed(figure)) return undefined;
  const [img, caption, ...rest] = significant(figure.childNodes);
  if (rest.length > 0 || !img || !isElement(img) || img.tagName !== 'img') return undefined;
  const attrs = attributes(img);
  const src = attrs.get('src');
  const alt = attrs.get('alt');
  if (src === undefined || [...attrs.keys()].some((name) => !IMAGE_ATTRIBUTES.has(name))) return undefined;
  const figureData: Figure = { url: src, ...(alt ? { alt } : {}), ...dimensions(attrs) };
  if (!caption) return figureData;
  const content = captionOf(caption);
  return content ? { ...figureData, caption: content } : undefined;
}

function captionOf(node: ReturnType<typeof parseHtml>[number]): PhrasingContent[] | undefined {
  if (!isElement(node) || node.tagName !== 'figcaption' || node.attrs.length > 0) return undefined;
  const inner = significant(node.childNodes);
  if (inner.length === 0) return [];
  const [p] = inner;
  if (inner.length === 1 && isElement(p) && (p as HtmlElement).tagName === 'p' && p.attrs.length === 0)
    return htmlToPhrasing(p.childNodes);
  return htmlToPhrasing(node.childNodes);
}

/**
 * GitBook's HTML for an image block: the caption in a paragraph, an empty `<figcaption>` without one;
 * a `width` and a `height` that Markdown can write (pixels, a percentage) on the `<img>`.
 */
export function figureHtml(
  url: string,
  alt: string,
  caption: readonly PhrasingContent[],
  size: { width?: unknown; height?: unknown } = {},
): Html {
  const figcaption = caption.length > 0 ? `<p>${phrasingToHtml(caption)}</p>` : '';
  const width = lengthText(size.width);
  const height = lengthText(size.height);
  const dimensions = `${width === undefined ? '' : ` width="${width}"`}${height === undefined ? '' : ` height="${height}"`}`;
  return {
    type: 'html',
    value: `<figure><img src="${escapeAttribute(url)}" alt="${escapeAttribute(alt)}"${dimensions}><figcaption>${figcaption}</figcaption></figure>`,
  };
}

/** Whether an image's data has a size Markdown's image syntax cannot hold (only a figure's `<img>` can). */
export const hasSize = (data: { width?: unknown; height?: unknown }): boolean =>
  lengthText(data.width) !== undefined || lengthText(data.height) !== undefined;
