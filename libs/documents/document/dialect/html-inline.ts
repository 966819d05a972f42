/**
 * GitBook's inline HTML: `<mark style="color:red;background-color:blue;">text</mark>` is its color mark
 * (`DocumentMarkColor`), `<a href="…" class="button primary">Label</a>` its button (`DocumentInlineButton`).
 * Markdown gives inline HTML tag by tag (an `html` node per tag), so opening and closing tags are paired
 * among siblings; a tag left unpaired, a plain `<mark>`, a style or a color GitBook has no mark for stay
 * the inline HTML they are (kept as such).
 */
import type { DocumentInlineButton, DocumentMarkColor } from '@gitbook/api';
import type { Html, PhrasingContent } from 'mdast';
import { escapeAttribute, isEndTag, startTag } from './html';

export type ColorData = DocumentMarkColor['data'];
type Color = ColorData['text'];

/** GitBook's color tokens (`DocumentTextColor`). */
const COLORS: ReadonlySet<string> = new Set<string>([
  'default',
  'green',
  'blue',
  'red',
  'orange',
  'yellow',
  'purple',
  'pink',
  'violet',
  'cyan',
  '$primary',
  '$info',
  '$success',
  '$warning',
  '$danger',
  '$tint',
]);

/** Marks nested deeper than this are left as the HTML they are (a bound on recursion). */
export const MAX_MARK_NESTING = 32;

/** Inline HTML paired into what it means: a span of a color mark. */
export interface ColorSpan {
  type: 'colorSpan';
  color: Partial<ColorData>;
  children: InlineHtmlContent[];
}

/** A GitBook button link, `<a href class="button primary">label</a>`. */
export interface ButtonLink {
  type: 'buttonLink';
  data: DocumentInlineButton['data'];
}

export type InlineHtmlContent = PhrasingContent | ColorSpan | ButtonLink;

/** The colors a `<mark>` start tag sets, or undefined when it is not GitBook's color mark. */
export function markColor(html: string): Partial<ColorData> | undefined {
  const attrs = startTag(html, 'mark');
  const style = attrs?.get('style');
  if (attrs?.size !== 1 || style === undefined) return undefined;
  const color: Partial<ColorData> = {};
  for (const declaration of style.split(';')) {
    if (declaration.trim() === '') continue;
    const colon = declaration.indexOf(':');
    const property = declaration.slice(0, colon).trim().toLowerCase();
    const value = declaration.slice(colon + 1).trim();
    if (colon < 0 || !COLORS.has(value)) return undefined;
    if (property === 'color') color.text = value as Color;
    else if (property === 'background-color') color.background = value as Color;
    else return undefined;
  }
  return color.text || color.background ? color : undefined;
}

/** GitBook's `<mark>` start tag for a color mark. */
export function markStartTag(color: ColorData): string {
  let style = '';
  if (color.text !== 'default') style += `color:${color.text};`;
  if (color.background !== 'default') style += `background-color:${color.background};`;
  return `<mark style="${style || 'color:default;'}">`;
}

export const MARK_END = '</mark>';

const BUTTON_CLASSES: Record<string, DocumentInlineButton['data']['kind']> = {
  'button primary': 'primary',
  'button secondary': 'secondary',
};

/** The button an `<a>` start tag opens, without its label, or undefined. */
function buttonStart(html: string): Omit<DocumentInlineButton['data'], 'label'> | undefined {
  const attrs = startTag(html, 'a');
  const href = attrs?.get('href');
  const kind = BUTTON_CLASSES[attrs?.get('class') ?? ''];
  const icon = attrs?.get('data-icon');
  if (!attrs || href === undefined || !kind || attrs.size !== (icon === undefined ? 2 : 3)) return undefined;
  return { kind, ref: { kind: 'url', url: href }, ...(icon ? { icon } : {}) } as Omit<
    DocumentInlineButton['data'],
    'label'
  >;
}

/** The button as inline HTML nodes (its label a text node, written with Markdown's escapes). */
export function buttonPhrasing(data: DocumentInlineButton['data'], url: string): PhrasingContent[] {
  const icon = data.icon ? ` data-icon="${escapeAttribute(data.icon)}"` : '';
  const start = `<a href="${escapeAttribute(url)}" class="button ${data.kind}"${icon}>`;
  return [
    { type: 'html', value: start },
    ...(data.label ? [{ type: 'text', value: data.label } as const] : []),
    { type: 'html', value: '</a>' },
  ];
}

const isHtml = (node: PhrasingContent | undefined): node is Html => node?.type === 'html';

/** Phrasing with GitBook's buttons and color marks paired; everything else as it is. */
export function pairInlineHtml(children: readonly PhrasingContent[]): InlineHtmlContent[] {
  return pairMarks(pairButtons(children));
}

function pairButtons(children: readonly PhrasingContent[]): InlineHtmlContent[] {
  const out: InlineHtmlContent[] = [];
  for (let i = 0; i < children.length; i++) {
    const node = children[i];
    const start = isHtml(node) ? buttonStart(node.value) : undefined;
    if (start) {
      const label = children[i + 1]?.type === 'text' ? (children[i + 1] as { value: string }) : undefined;
      const end = children[i + (label ? 2 : 1)];
      if (isHtml(end) && isEndTag(end.value, 'a')) {
        out.push({ type: 'buttonLink', data: { ...start, label: label?.value ?? '' } as ButtonLink['data'] });
        i += label ? 2 : 1;
        continue;
      }
    }
    out.push(node);
  }
  return out;
}

/** `<mark>` and `</mark>` paired as a stack (a closing tag closes the latest open one), in one pass. */
function pairMarks(children: readonly InlineHtmlContent[]): InlineHtmlContent[] {
  interface Frame {
    start?: Html;
    color?: Partial<ColorData>;
    out: InlineHtmlContent[];
  }
  const stack: Frame[] = [{ out: [] }];
  const top = () => stack[stack.length - 1];
  for (const node of children) {
    if (node.type === 'html' && /^<mark[\s>]/i.test(node.value) && stack.length <= MAX_MARK_NESTING) {
      stack.push({ start: node, color: markColor(node.value), out: [] });
    } else if (node.type === 'html' && isEndTag(node.value, 'mark') && stack.length > 1) {
      const frame = stack.pop() as Frame;
      if (frame.color) top().out.push({ type: 'colorSpan', color: frame.color, children: frame.out });
      else top().out.push(frame.start as Html, ...frame.out, node);
    } else top().out.push(node);
  }
  while (stack.length > 1) {
    const frame = stack.pop() as Frame;
    top().out.push(frame.start as Html, ...frame.out);
  }
  return stack[0].out;
}
