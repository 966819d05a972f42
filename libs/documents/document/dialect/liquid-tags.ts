/**
 * GitBook's Liquid-style block tags (its Git Sync Markdown), at the Markdown level: a line holding one
 * `{% name attr="value" … %}` or `{% endname %}` is read by a micromark flow construct into a
 * `liquidTag` node; a tree transform then pairs open and close tags among siblings (in every container)
 * and wraps what is between into a `liquidBlock` node, which mdast-util-to-markdown writes back as the
 * same tags. What the transform leaves (an unpaired or malformed tag) is text, as it was before: a
 * paragraph joined to the paragraphs on the lines around it. The blocks' GitBook form is in
 * liquid-blocks.ts.
 *
 * The mdast form is normal: known attributes only (with a typed field's value in its one written form,
 * dropped when it is not such a value), in the order they are written, `swagger` read as
 * `openapi`, a body GitBook writes by default (`[url](url)` in a content-ref) dropped, so that what
 * Markdown says and what its document says are written the same.
 */
import type {
  BlockContent,
  DefinitionContent,
  Node,
  Paragraph,
  Parent,
  PhrasingContent,
  Root,
  RootContent,
} from 'mdast';
import type { CompileContext, Extension as FromMarkdownExtension, Token } from 'mdast-util-from-markdown';
import type { Handle, Join, Options as ToMarkdownOptions, Unsafe } from 'mdast-util-to-markdown';
import type {
  Code,
  Effects,
  Extension as MicromarkExtension,
  State,
  TokenizeContext,
} from 'micromark-util-types';
import {
  booleanOf,
  booleanText,
  iconOf,
  lengthOf,
  lengthText,
  verticalAlignmentOf,
} from './attribute-values';

export const HINT_STYLES = ['info', 'success', 'warning', 'danger'] as const;
export type HintStyle = (typeof HINT_STYLES)[number];

export type TagName =
  | 'hint'
  | 'tabs'
  | 'tab'
  | 'embed'
  | 'content-ref'
  | 'code'
  | 'file'
  | 'openapi'
  | 'openapi-operation'
  | 'stepper'
  | 'step'
  | 'columns'
  | 'column';

interface TagSpec {
  /** The attributes kept, in the order they are written; others are dropped. */
  attributes: readonly string[];
  /** Attributes without which the tag is not one (it stays text). */
  required?: readonly string[];
  /**
   * What is between the open and the close tag: blocks; only items of one tag; a caption (at most one
   * paragraph; the open tag may also stand alone); or one code block.
   */
  body: 'blocks' | 'caption' | 'code' | { items: TagName };
  /** An item's tag, which it must be directly in. */
  in?: TagName;
  /** Whether the attributes' values are ones the block can hold. */
  valid?: (attributes: Attributes) => boolean;
  /** The body GitBook writes when there is no other (a link to the target): dropped when read, written back. */
  defaultBody?: string;
  /**
   * Attributes whose value the block holds as a typed field: their one written form, or undefined for a
   * value the field cannot hold (the attribute is dropped; the tag stays a block).
   */
  values?: Readonly<Record<string, (value: string) => string | undefined>>;
}

export type Attributes = Record<string, string>;

const BOOLEAN = /^(true|false)$/;
const optional = (value: string | undefined, pattern: RegExp) => value === undefined || pattern.test(value);

const lengthValue = (value: string) => lengthText(lengthOf(value));
const booleanValue = (value: string) => booleanText(booleanOf(value));

export const TAGS: Readonly<Record<TagName, TagSpec>> = {
  hint: {
    attributes: ['style', 'icon'],
    body: 'blocks',
    values: { icon: iconOf },
    valid: (a) => (HINT_STYLES as readonly string[]).includes(a.style ?? 'info'),
  },
  tabs: { attributes: ['fullWidth'], body: { items: 'tab' }, values: { fullWidth: booleanValue } },
  tab: { attributes: ['title', 'icon'], body: 'blocks', in: 'tabs', values: { icon: iconOf } },
  embed: {
    attributes: ['url', 'fullWidth'],
    required: ['url'],
    body: 'caption',
    values: { fullWidth: booleanValue },
  },
  'content-ref': { attributes: ['url'], required: ['url'], body: 'caption', defaultBody: 'url' },
  code: {
    attributes: ['title', 'overflow', 'lineNumbers', 'fullWidth', 'expandable'],
    body: 'code',
    valid: (a) =>
      optional(a.overflow, /^(scroll|wrap)$/) &&
      optional(a.lineNumbers, BOOLEAN) &&
      optional(a.fullWidth, BOOLEAN) &&
      optional(a.expandable, BOOLEAN),
  },
  file: { attributes: ['src'], required: ['src'], body: 'caption' },
  openapi: {
    attributes: ['src', 'path', 'method', 'expanded', 'fullWidth'],
    required: ['src', 'path', 'method'],
    body: 'caption',
    defaultBody: 'src',
    values: { expanded: booleanValue, fullWidth: booleanValue },
  },
  'openapi-operation': {
    attributes: ['spec', 'path', 'method'],
    required: ['spec', 'path', 'method'],
    body: 'caption',
  },
  stepper: { attributes: [], body: { items: 'step' } },
  step: { attributes: [], body: 'blocks', in: 'stepper' },
  columns: { attributes: ['fullWidth'], body: { items: 'column' }, values: { fullWidth: booleanValue } },
  column: {
    attributes: ['width', 'valign'],
    body: 'blocks',
    in: 'columns',
    values: { width: lengthValue, valign: verticalAlignmentOf },
  },
};

/** Older names GitBook still reads. */
const ALIASES: Readonly<Record<string, TagName>> = { swagger: 'openapi' };

/** Attributes holding a URL: GitBook's own Markdown has written them autolinked, `url="<https://…>"`. */
const URL_ATTRIBUTES = new Set(['url', 'src']);

const tagName = (name: string): TagName | undefined =>
  Object.hasOwn(TAGS, name) ? (name as TagName) : ALIASES[name];

/** Tags that open a body that must be closed (the others may stand alone): what nests, for limits. */
export const NESTING_TAGS: ReadonlySet<string> = new Set(
  Object.entries(TAGS)
    .filter(([, spec]) => spec.body !== 'caption')
    .map(([name]) => name),
);

/** A tag line as read: what the transform pairs. */
export interface LiquidTag extends Node {
  type: 'liquidTag';
  name: TagName;
  closing: boolean;
  attributes: Attributes;
  /** The line as written, for a tag that stays text. */
  value: string;
}

/** A GitBook block written as tags: `children` are its body (for a group, its items). */
export interface LiquidBlock extends Parent {
  type: 'liquidBlock';
  name: TagName;
  attributes: Attributes;
  children: (BlockContent | DefinitionContent)[];
}

declare module 'mdast' {
  interface RootContentMap {
    liquidTag: LiquidTag;
    liquidBlock: LiquidBlock;
  }
  interface BlockContentMap {
    liquidBlock: LiquidBlock;
  }
}

declare module 'micromark-util-types' {
  interface TokenTypeMap {
    liquidTag: 'liquidTag';
  }
}

declare module 'mdast-util-to-markdown' {
  interface ConstructNameMap {
    liquidBlock: 'liquidBlock';
  }
}

// ---------------------------------------------------------------------------------------------------
// The line: `{% name a="v" b='w' c=x %}` or `{% endname %}`, alone on its line (spaces around).

/** A tag line's name and attributes, or undefined when the line is not a known tag. */
export function parseTagLine(
  line: string,
): { name: TagName; closing: boolean; attributes: Attributes } | undefined {
  const end = line.trimEnd().length;
  let i = 0;
  const spaces = () => {
    while (i < end && (line[i] === ' ' || line[i] === '\t')) i++;
  };
  spaces();
  if (!line.startsWith('{%', i)) return undefined;
  i += 2;
  spaces();
  const nameStart = i;
  while (i < end && /[a-z-]/.test(line[i])) i++;
  let word = line.slice(nameStart, i);
  const closing = word.startsWith('end');
  if (closing) word = word.slice(3);
  const name = tagName(word);
  if (name === undefined) return undefined;
  const attributes: Attributes = Object.create(null);
  for (;;) {
    const before = i;
    spaces();
    if (line.startsWith('%}', i)) {
      i += 2;
      break;
    }
    if (i === before || closing) return undefined;
    const keyStart = i;
    while (i < end && /[A-Za-z0-9_-]/.test(line[i])) i++;
    const key = line.slice(keyStart, i);
    if (key === '') return undefined;
    spaces();
    if (line[i] !== '=') return undefined;
    i++;
    spaces();
    let value = '';
    const quote = line[i];
    if (quote === '"' || quote === "'") {
      i++;
      for (;;) {
        if (i >= end) return undefined;
        const c = line[i];
        if (c === quote) break;
        // `\"` and `\\` are escapes; any other backslash is itself (a Windows path).
        if (c === '\\' && (line[i + 1] === quote || line[i + 1] === '\\')) i++;
        value += line[i];
        i++;
      }
      i++;
    } else {
      const valueStart = i;
      while (i < end && !/[\s"'%]/.test(line[i])) i++;
      value = line.slice(valueStart, i);
      if (value === '') return undefined;
    }
    if (URL_ATTRIBUTES.has(key) && value.startsWith('<') && value.endsWith('>')) value = value.slice(1, -1);
    if (!(key in attributes)) attributes[key] = value;
  }
  if (i !== end) return undefined;
  return { name, closing, attributes };
}

/** A tag line as the writer writes it. */
export function tagLine(name: TagName, attributes: Attributes = {}, closing = false): string {
  if (closing) return `{% end${name} %}`;
  const written = TAGS[name].attributes
    .filter((key) => attributes[key] !== undefined)
    .map((key) => ` ${key}="${escapeValue(attributes[key])}"`)
    .join('');
  return `{% ${name}${written} %}`;
}

/** `"` and a backslash before `"`, a backslash or the end escaped; a line break is a space (tags are a line). */
const escapeValue = (value: string) =>
  value
    .replace(/[\r\n]+/g, ' ')
    .replace(/\\(?=["\\]|$)/g, '\\\\')
    .replace(/"/g, '\\"');

// ---------------------------------------------------------------------------------------------------
// micromark: the flow construct.

const LEFT_BRACE = 0x7b;
const PERCENT = 0x25;

function tokenizeLiquidTag(this: TokenizeContext, effects: Effects, ok: State, nok: State): State {
  let line = '';
  const inside: State = (code: Code) => {
    // null: the end; -5, -4, -3: line endings.
    if (code === null || code < -2) {
      if (parseTagLine(line) === undefined) return nok(code);
      effects.exit('liquidTag');
      return ok(code);
    }
    // -2: a tab, -1: the virtual spaces after it.
    if (code !== -1) line += code === -2 ? '\t' : String.fromCharCode(code);
    effects.consume(code);
    return inside;
  };
  const percent: State = (code: Code) => {
    if (code !== PERCENT) return nok(code);
    line += '%';
    effects.consume(code);
    return inside;
  };
  return (code: Code) => {
    if (code !== LEFT_BRACE) return nok(code);
    effects.enter('liquidTag');
    line = '{';
    effects.consume(code);
    return percent;
  };
}

/** micromark: a line holding one known tag is a `liquidTag` (it interrupts a paragraph). */
export const liquidTagSyntax = (): MicromarkExtension => ({
  flow: { [LEFT_BRACE]: { name: 'liquidTag', tokenize: tokenizeLiquidTag } },
});

// ---------------------------------------------------------------------------------------------------
// mdast: the node, then the pairing.

/** mdast-util-from-markdown: `liquidTag` nodes, paired into `liquidBlock`s once the tree is read. */
export const liquidTagFromMarkdown = (): FromMarkdownExtension => ({
  enter: {
    liquidTag(this: CompileContext, token: Token) {
      const value = this.sliceSerialize(token).trim();
      const tag = parseTagLine(value);
      if (tag === undefined) throw new Error(`not a tag line: ${value}`);
      this.enter({ type: 'liquidTag', ...tag, value }, token);
    },
  },
  exit: {
    liquidTag(this: CompileContext, token: Token) {
      this.exit(token);
    },
  },
  transforms: [pairTags],
});

/**
 * A block of HTML runs to a blank line, so a tag line right after HTML (GitBook writes
 * `<figure>…</figure>` then `{% endstep %}` on the next line) would be read as more HTML. Such a block
 * ends before its first tag line: from that line on, its lines are read again as flow content
 * (`readFlow`, which does not pair tags), in its place, before the tags are paired. The blocks of HTML
 * that end at a marker of their own (`<pre>`, `<script>`, `<style>`, `<textarea>`, comments, `<?`,
 * `<!X`, CDATA) hold their lines as they are. Each split reads the rest of its block again, so one
 * document's splits share a `budget` (that many splits, that many characters read again): one block of
 * HTML holding tag lines on every other line would otherwise take quadratic time. Past it, HTML is
 * HTML to its blank line, as CommonMark has it.
 */
export interface HtmlSplitBudget {
  splits: number;
  characters: number;
}
export const htmlSplitBudget = (): HtmlSplitBudget => ({ splits: 200, characters: 256 * 1024 });

export function tagsOutOfHtml(
  readFlow: (markdown: string) => RootContent[],
  budget: HtmlSplitBudget,
): (tree: Root) => Root {
  const split = (children: RootContent[]): RootContent[] => {
    if (!children.some((node) => node.type === 'html' && node.value.includes('{%'))) return children;
    return children.flatMap((node): RootContent[] => {
      if (node.type !== 'html' || RAW_HTML.test(node.value) || !node.value.includes('{%')) return [node];
      const lines = node.value.split('\n');
      const at = lines.findIndex((line, i) => i > 0 && parseTagLine(line) !== undefined);
      if (at < 0) return [node];
      const restText = lines.slice(at).join('\n');
      if (budget.splits <= 0 || budget.characters < restText.length) return [node];
      budget.splits--;
      budget.characters -= restText.length;
      const start = node.position?.start.line;
      const head: RootContent = {
        type: 'html',
        value: lines.slice(0, at).join('\n'),
        ...(node.position && start !== undefined
          ? { position: { start: node.position.start, end: { line: start + at - 1, column: 1 } } }
          : {}),
      };
      const rest = readFlow(restText);
      if (start !== undefined) for (const child of rest) shiftLines(child, start + at - 1);
      return [head, ...split(rest)];
    });
  };
  const visit = (node: Node): void => {
    const parent = node as Parent;
    if (!Array.isArray(parent.children)) return;
    if (
      node.type === 'root' ||
      node.type === 'blockquote' ||
      node.type === 'listItem' ||
      node.type === 'footnoteDefinition'
    )
      parent.children = split(parent.children as RootContent[]);
    for (const child of parent.children) visit(child);
  };
  return (tree) => {
    visit(tree);
    return tree;
  };
}

/** HTML blocks that end at their own marker, not at a blank line (CommonMark's kinds 1 to 5). */
const RAW_HTML = /^[ \t]*<(?:(?:pre|script|style|textarea)(?:[\s>]|$)|!--|\?|![A-Za-z]|!\[CDATA\[)/i;

function shiftLines(node: Node, by: number): void {
  if (node.position) {
    node.position = {
      start: { ...node.position.start, line: node.position.start.line + by },
      end: { ...node.position.end, line: node.position.end.line + by },
    };
  }
  const children = (node as Parent).children;
  if (Array.isArray(children)) for (const child of children) shiftLines(child, by);
}

/** Paragraphs made of tags that stay text, to join with the paragraphs on the lines around them. */
const tagTexts = new WeakSet<Paragraph>();

function pairTags(tree: Root): Root {
  tree.children = flow(tree.children) as Root['children'];
  return tree;
}

type Flow = RootContent;

/**
 * Flow content read from Markdown (a document's, a quote's, a list item's, a footnote's), its tags
 * paired, checked and normal. A block's body is paired with the content it is in (a pair holds whole
 * pairs), and is only checked.
 */
function flow(children: readonly Flow[]): Flow[] {
  return joinTexts(check(build(children, match(children)), undefined));
}

/**
 * The close tag each open tag pairs with, by index: the nearest open tag of its name still open; the
 * open tags between are left unpaired. Linear: each tag enters and leaves the stack once, and a close
 * tag with no open tag of its name is known so by a count.
 */
function match(children: readonly Flow[]): Map<number, number> {
  const pairs = new Map<number, number>();
  const stack: number[] = [];
  const open = new Map<TagName, number>();
  children.forEach((node, i) => {
    if (node.type !== 'liquidTag' || !validAttributes(node)) return;
    if (!node.closing) {
      stack.push(i);
      open.set(node.name, (open.get(node.name) ?? 0) + 1);
      return;
    }
    if (!open.get(node.name)) return;
    for (;;) {
      const top = stack.pop() as number;
      const tag = children[top] as LiquidTag;
      open.set(tag.name, (open.get(tag.name) as number) - 1);
      if (tag.name === node.name) {
        pairs.set(top, i);
        return;
      }
    }
  });
  return pairs;
}

/** Pairs become blocks holding what is between them; other tags stay tags (for `check`). */
function build(
  children: readonly Flow[],
  pairs: Map<number, number>,
  from = 0,
  to = children.length,
): Flow[] {
  const out: Flow[] = [];
  for (let i = from; i < to; i++) {
    const node = children[i];
    const close = pairs.get(i);
    if (close === undefined) {
      out.push(node);
      continue;
    }
    const tag = node as LiquidTag;
    out.push({
      type: 'liquidBlock',
      name: tag.name,
      attributes: normalAttributes(tag),
      children: build(children, pairs, i + 1, close) as LiquidBlock['children'],
      position: {
        start: tag.position?.start ?? { line: 0, column: 0 },
        end: children[close].position?.end ?? { line: 0, column: 0 },
      },
      data: { open: tag, close: children[close] as LiquidTag },
    } as LiquidBlock);
    i = close;
  }
  return out;
}

interface PairData {
  open: LiquidTag;
  close: LiquidTag;
}

/**
 * Each block where its tag may be and with the body its tag takes, or unwrapped: its tags become text
 * (an open tag that may stand alone stays a block) and its body joins the content around. Containers
 * that are not tags (quotes, list items, footnotes) have their own content paired.
 */
function check(nodes: readonly Flow[], parent: TagName | undefined): Flow[] {
  const out: Flow[] = [];
  for (const node of nodes) {
    if (node.type === 'liquidTag') {
      out.push(standalone(node));
      continue;
    }
    if (node.type !== 'liquidBlock') {
      out.push(withContent(node));
      continue;
    }
    const spec = TAGS[node.name];
    const body = node.children;
    const items = typeof spec.body === 'object' ? spec.body.items : undefined;
    const fits =
      (spec.in === undefined || spec.in === parent) &&
      (items === undefined || body.every((child) => child.type === 'liquidBlock' && child.name === items)) &&
      (spec.body !== 'caption' || body.length === 0 || (body.length === 1 && body[0].type === 'paragraph')) &&
      (spec.body !== 'code' || (body.length === 1 && body[0].type === 'code'));
    if (!fits) {
      const { open, close } = node.data as unknown as PairData;
      out.push(standalone(open));
      for (const child of check(body, parent)) out.push(child);
      out.push(standalone(close));
      continue;
    }
    delete node.data;
    if (spec.body === 'caption') {
      node.children = body.map((child) => withContent(child));
      if (spec.defaultBody && isDefaultBody(node, spec.defaultBody)) node.children = [];
    } else node.children = joinTexts(check(body, node.name)) as LiquidBlock['children'];
    out.push(node);
  }
  return out;
}

/** A tag not paired: a block if it may stand alone (an embed), else its line as text. */
function standalone(tag: LiquidTag): Flow {
  if (!tag.closing && TAGS[tag.name].body === 'caption' && validAttributes(tag)) {
    return {
      type: 'liquidBlock',
      name: tag.name,
      attributes: normalAttributes(tag),
      children: [],
      position: tag.position,
    };
  }
  const paragraph: Paragraph = {
    type: 'paragraph',
    children: [{ type: 'text', value: tag.value }],
    position: tag.position,
  };
  tagTexts.add(paragraph);
  return paragraph;
}

/** A node whose children are flow content (a quote, a list's items, a footnote) with its tags paired. */
function withContent<T extends Flow>(node: T): T {
  const container: Flow = node;
  if (
    container.type === 'blockquote' ||
    container.type === 'listItem' ||
    container.type === 'footnoteDefinition'
  ) {
    container.children = flow(container.children) as typeof container.children;
    // A list item is loose for a blank line between its children, not for one inside a block of tags
    // (which the parser saw as the item's own lines).
    if (container.type === 'listItem' && container.children.some((child) => child.type === 'liquidBlock'))
      container.spread = container.children.some(
        (child, i) =>
          i > 0 &&
          child.position !== undefined &&
          container.children[i - 1].position !== undefined &&
          child.position.start.line > (container.children[i - 1].position?.end.line ?? 0) + 1,
      );
  } else if (container.type === 'list') {
    for (const item of container.children) withContent(item);
  }
  return node;
}

const validAttributes = (tag: LiquidTag): boolean => {
  const spec = TAGS[tag.name];
  if (tag.closing) return true;
  return (
    (spec.required ?? []).every((key) => tag.attributes[key] !== undefined) &&
    (spec.valid?.(tag.attributes) ?? true)
  );
};

function normalAttributes(tag: LiquidTag): Attributes {
  const out: Attributes = {};
  const { attributes, values = {} } = TAGS[tag.name];
  for (const key of attributes) {
    const written = tag.attributes[key];
    const value =
      written === undefined ? undefined : Object.hasOwn(values, key) ? values[key](written) : written;
    if (value !== undefined) out[key] = value;
  }
  if (tag.name === 'hint' && out.style === undefined) out.style = 'info';
  return out;
}

/** A body that is one link to the block's target, named by its URL: what GitBook writes when there is no other. */
function isDefaultBody(block: LiquidBlock, attribute: string): boolean {
  const url = block.attributes[attribute];
  const [paragraph] = block.children;
  if (block.children.length !== 1 || paragraph.type !== 'paragraph' || paragraph.children.length !== 1)
    return false;
  const [link] = paragraph.children;
  return (
    link.type === 'link' &&
    link.url === url &&
    link.children.length === 1 &&
    link.children[0].type === 'text' &&
    link.children[0].value === url
  );
}

/** A body GitBook writes for a block without one. */
export function defaultBody(block: LiquidBlock): Paragraph | undefined {
  const attribute = TAGS[block.name].defaultBody;
  const url = attribute === undefined ? undefined : block.attributes[attribute];
  if (url === undefined) return undefined;
  return {
    type: 'paragraph',
    children: [{ type: 'link', url, title: null, children: [{ type: 'text', value: url }] }],
  };
}

/**
 * A tag that stays text is what Markdown without tags read: one paragraph with the lines right before
 * and after it. Paragraphs on consecutive lines join, one of them a tag's.
 */
function joinTexts(nodes: Flow[]): Flow[] {
  const out: Flow[] = [];
  for (const node of nodes) {
    const last = out.at(-1);
    if (
      last?.type === 'paragraph' &&
      node.type === 'paragraph' &&
      (tagTexts.has(last) || tagTexts.has(node)) &&
      last.position !== undefined &&
      node.position !== undefined &&
      last.position.end.line + 1 === node.position.start.line
    ) {
      // In place: a flood of tags joins in linear time.
      append(last.children, { type: 'text', value: '\n' });
      for (const child of node.children) append(last.children, child);
      last.position = { start: last.position.start, end: node.position.end };
      tagTexts.add(last);
    } else out.push(node);
  }
  return out;
}

function append(children: PhrasingContent[], node: PhrasingContent): void {
  const last = children.at(-1);
  if (node.type === 'text' && last?.type === 'text')
    children[children.length - 1] = { ...last, value: last.value + node.value };
  else children.push(node);
}

// ---------------------------------------------------------------------------------------------------
// mdast-util-to-markdown: the blocks as tags, and text that would read as a tag escaped.

/** Whether the last child must be apart from the close tag (a table or HTML would take the line in). */
const APART = new Set(['table', 'html', 'list']);

const liquidBlockHandle: Handle = (node: LiquidBlock, _parent, state, info) => {
  const open = tagLine(node.name, node.attributes);
  const spec = TAGS[node.name];
  const fallback = node.children.length === 0 ? defaultBody(node) : undefined;
  const block = fallback ? { ...node, children: [fallback] } : node;
  if (spec.body === 'caption' && block.children.length === 0) return open;
  const close = tagLine(node.name, {}, true);
  if (block.children.length === 0) return `${open}\n${close}`;
  const exit = state.enter('liquidBlock');
  const tracker = state.createTracker(info);
  tracker.move(`${open}\n`);
  const body = state.containerFlow(
    block as unknown as Parameters<typeof state.containerFlow>[0],
    tracker.current(),
  );
  exit();
  const last = block.children[block.children.length - 1];
  return `${open}\n${body}\n${APART.has(last.type) ? '\n' : ''}${close}`;
};

const TAG_WORDS = [...Object.keys(TAGS), ...Object.keys(ALIASES)]
  .sort((a, b) => b.length - a.length)
  .join('|');

/** Text at the start of a line that would read as a tag is escaped (`\{% endhint %}`). */
const unsafe: Unsafe[] = [
  {
    character: '{',
    atBreak: true,
    after: `%[\\t ]*(?:end)?(?:${TAG_WORDS})(?![a-z-])`,
    inConstruct: 'phrasing',
  },
];

/** A table, a list or HTML right before a tag would take its line in: a blank line between, even in a tight item. */
const apartBeforeTags: Join = (left, right) =>
  right.type === 'liquidBlock' && APART.has(left.type) ? 1 : undefined;

/** mdast-util-to-markdown: `liquidBlock` nodes written as GitBook writes them. */
export const liquidTagToMarkdown = (): ToMarkdownOptions => ({
  handlers: { liquidBlock: liquidBlockHandle },
  join: [apartBeforeTags],
  unsafe,
});
