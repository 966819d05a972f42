/**
 * GitBook's blocks written as Liquid-style tags (liquid-tags.ts), both ways between their mdast
 * `liquidBlock` and the document: hint, tabs, embed, content-ref, code with its options, file, OpenAPI
 * operations, stepper and columns. A target that cannot be resolved here (a relative `.md` URL, an asset
 * path) is kept as written, a `url` ref. A caption (an embed's, a file's, the body of a content-ref or an
 * OpenAPI block) is a `caption` fragment holding one paragraph, as GitBook keeps an image's. The
 * attributes GitBook's data has a field for are kept (attribute-values.ts): a hint's and a tab's `icon`,
 * `fullWidth` on embeds, OpenAPI blocks, tabs and columns (and an OpenAPI block's `expanded`), a
 * column's `width` and `valign` (`verticalAlignment`).
 */
import type { BlockContent, Code, Paragraph, PhrasingContent, RootContent } from 'mdast';
import type {
  CodeData,
  ContentRef,
  DocumentBlock,
  DocumentBlockParagraph,
  DocumentFragment,
  DocumentNode,
} from '../document';
import { childrenOf, fragmentsOf, nested } from '../document';
import {
  booleanOf,
  booleanText,
  iconOf,
  lengthOf,
  lengthText,
  verticalAlignmentOf,
} from './attribute-values';
import { type Attributes, HINT_STYLES, type HintStyle, type LiquidBlock, type TagName } from './liquid-tags';

/** What converting a block's body takes from from-markdown.ts. */
export interface BodyReader {
  /** `top`: where GitBook has image blocks (a `<figure>`, an image alone in its paragraph). */
  blocks(children: readonly RootContent[], top?: boolean): DocumentBlock[];
  paragraph(children: PhrasingContent[]): DocumentBlockParagraph;
}

/** What writing a block's body takes from to-markdown.ts. */
export interface BodyWriter {
  flow(nodes: readonly DocumentNode[]): BlockContent[];
  refUrl(ref: ContentRef): string;
}

/** The code block's options written in a `{% code %}` tag. */
const CODE_OPTIONS = ['title', 'overflow', 'lineNumbers', 'fullWidth', 'expandable'] as const;
const BOOLEAN_OPTIONS = new Set(['lineNumbers', 'fullWidth', 'expandable']);

export type LiquidCodeData = CodeData & {
  title?: string;
  overflow?: 'scroll' | 'wrap';
  lineNumbers?: boolean;
  fullWidth?: boolean;
  expandable?: boolean;
};

const block = (type: string, data: object, extra: object = {}): DocumentBlock =>
  ({ object: 'block', type, data, ...extra }) as unknown as DocumentBlock;

/** The fields that are set: an attribute the tag does not have is no field. */
const defined = (fields: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));

/** Attribute text read as a field's value (the tag's attributes are normal: valid values only). */
const parsed = <T>(text: string | undefined, parse: (text: string) => T | undefined): T | undefined =>
  text === undefined ? undefined : parse(text);

/** A group's, an embed's or an OpenAPI block's `fullWidth`, when the tag says. */
const fullWidth = (a: Attributes) => defined({ fullWidth: parsed(a.fullWidth, booleanOf) });

/** A tab's data: its title and icon. */
const tabData = (a: Attributes) => defined({ title: a.title, icon: a.icon });

/** A column's data: GitBook's `width` (a `Length`) and `verticalAlignment` (written `valign`). */
const columnData = (a: Attributes) =>
  defined({ width: parsed(a.width, lengthOf), verticalAlignment: verticalAlignmentOf(a.valign) });

/** The document block of a `liquidBlock`. */
export function liquidBlockToDocument(node: LiquidBlock, read: BodyReader): DocumentBlock {
  const a = node.attributes;
  const body = () => nested<DocumentBlock>(read.blocks(node.children));
  // A tab, a step and a column hold image blocks, as the document does (a hint does not).
  const items = (type: string, data: (item: LiquidBlock) => object) =>
    (node.children as LiquidBlock[]).map((item) =>
      block(type, data(item), { nodes: read.blocks(item.children, true) }),
    );
  const caption = (): { fragments?: DocumentFragment[] } => {
    const [paragraph] = node.children;
    if (paragraph?.type !== 'paragraph') return {};
    return {
      fragments: [{ object: 'fragment', fragment: 'caption', nodes: [read.paragraph(paragraph.children)] }],
    };
  };
  const url = (value: string): ContentRef => ({ kind: 'url', url: value });
  switch (node.name) {
    case 'hint':
      return block('hint', defined({ style: a.style as HintStyle, icon: a.icon }), { nodes: body() });
    case 'tabs':
      return block('tabs', fullWidth(a), { nodes: items('tabs-item', (tab) => tabData(tab.attributes)) });
    case 'stepper':
      return block('stepper', {}, { nodes: items('stepper-step', () => ({})) });
    case 'columns':
      return block('columns', fullWidth(a), {
        isVoid: false,
        nodes: items('column', (column) => columnData(column.attributes)),
      });
    case 'embed':
      return block(
        'embed',
        { url: a.url, ...fullWidth(a) },
        {
          isVoid: true,
          ...caption(),
        },
      );
    case 'content-ref':
      return block('content-ref', { ref: url(a.url) }, { isVoid: true, ...caption() });
    case 'file':
      // GitBook's file refs name a file it stores; an asset path is kept as a URL (an extension).
      return block('file', { ref: url(a.src) }, { isVoid: true, ...caption() });
    case 'openapi':
      return block(
        'swagger',
        {
          ref: url(a.src),
          path: a.path,
          method: a.method,
          ...defined({ expanded: parsed(a.expanded, booleanOf) }),
          ...fullWidth(a),
        },
        { isVoid: true, ...caption() },
      );
    case 'openapi-operation':
      return block(
        'openapi-operation',
        { ref: { kind: 'openapi', spec: a.spec }, path: a.path, method: a.method },
        { isVoid: true, ...caption() },
      );
    case 'code': {
      const [code] = read.blocks(node.children);
      const data: LiquidCodeData = { ...(code.data as CodeData) };
      for (const option of CODE_OPTIONS) {
        const value = a[option];
        if (value === undefined) continue;
        (data as Record<string, unknown>)[option] = BOOLEAN_OPTIONS.has(option) ? value === 'true' : value;
      }
      return { ...code, data } as DocumentBlock;
    }
    default:
      // Items are read with their group.
      return block('paragraph', {}, { nodes: [] });
  }
}

/** An item's data (none on a node GitBook did not make so). */
const dataOf = (node: DocumentNode): Record<string, unknown> =>
  ((node as { data?: object }).data ?? {}) as Record<string, unknown>;

/** The `liquidBlock` of a document block, or undefined for a block Markdown writes otherwise. */
export function documentToLiquid(node: DocumentBlock, write: BodyWriter): BlockContent[] | undefined {
  const data = (node.data ?? {}) as Record<string, unknown>;
  // An attribute without a value the tag can hold is not written.
  const liquid = (
    name: TagName,
    attributes: Partial<Attributes>,
    children: LiquidBlock['children'],
  ): LiquidBlock => ({
    type: 'liquidBlock',
    name,
    attributes: defined(attributes) as Attributes,
    children,
  });
  const items = (name: TagName, attributes: (item: DocumentNode) => Partial<Attributes>) =>
    childrenOf(node).map((item) => liquid(name, attributes(item), write.flow(childrenOf(item))));
  const caption = (): Paragraph[] => {
    const paragraphs = fragmentsOf(node)
      .filter((f) => f.fragment === 'caption')
      .flatMap((f) => write.flow(f.nodes))
      .filter((p): p is Paragraph => p.type === 'paragraph' && p.children.length > 0);
    return paragraphs.slice(0, 1);
  };
  const ref = data.ref as ContentRef | undefined;
  const target = ref === undefined ? '' : write.refUrl(ref);
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  switch (node.type) {
    case 'hint':
      return [
        liquid(
          'hint',
          {
            style: HINT_STYLES.includes(data.style as HintStyle) ? (data.style as HintStyle) : 'info',
            icon: iconOf(data.icon),
          },
          write.flow(childrenOf(node)),
        ),
      ];
    case 'tabs':
      return [
        liquid(
          'tabs',
          { fullWidth: booleanText(data.fullWidth) },
          items('tab', (item) => {
            const tab = dataOf(item);
            return { title: text(tab.title), icon: iconOf(tab.icon) };
          }),
        ),
      ];
    case 'stepper':
      return [
        liquid(
          'stepper',
          {},
          items('step', () => ({})),
        ),
      ];
    case 'columns':
      return [
        liquid(
          'columns',
          { fullWidth: booleanText(data.fullWidth) },
          items('column', (item) => {
            const column = dataOf(item);
            return {
              width: lengthText(column.width),
              valign: verticalAlignmentOf(column.verticalAlignment),
            };
          }),
        ),
      ];
    case 'embed':
      return [
        liquid('embed', { url: text(data.url) ?? '', fullWidth: booleanText(data.fullWidth) }, caption()),
      ];
    case 'content-ref':
      return [liquid('content-ref', { url: target }, caption())];
    case 'file':
      return [liquid('file', { src: target }, caption())];
    case 'swagger':
      return [
        liquid(
          'openapi',
          {
            src: target,
            path: text(data.path) ?? '',
            method: text(data.method) ?? '',
            expanded: booleanText(data.expanded),
            fullWidth: booleanText(data.fullWidth),
          },
          caption(),
        ),
      ];
    case 'openapi-operation': {
      const spec = ref?.kind === 'openapi' ? ref.spec : target;
      return [
        liquid(
          'openapi-operation',
          { spec, path: text(data.path) ?? '', method: text(data.method) ?? '' },
          caption(),
        ),
      ];
    }
    case 'code': {
      const codeData = { ...(data as LiquidCodeData) };
      const attributes: Attributes = {};
      for (const option of CODE_OPTIONS) {
        const value = codeData[option];
        delete codeData[option];
        // Values the tag can hold only (`overflow` is `scroll` or `wrap`, the others booleans but the title).
        if (BOOLEAN_OPTIONS.has(option) ? typeof value === 'boolean' : typeof value === 'string')
          if (option !== 'overflow' || value === 'scroll' || value === 'wrap')
            attributes[option] = String(value);
      }
      if (Object.keys(attributes).length === 0 || codeData.markdown === 'html') return undefined;
      const inner = write.flow([{ ...node, data: codeData } as DocumentBlock]) as Code[];
      return [liquid('code', attributes, inner)];
    }
    default:
      return undefined;
  }
}
