/**
 * GitBook's two Markdown dialects together: its block tags (liquid-tags.ts) and its HTML constructs and
 * math (html-*.ts, math.ts), each in the other's containers. Each case reads back the same, its
 * Markdown is stable on a second round trip, and GitBook's form of it is valid under its schema.
 */
import { schemaProblem } from '../../../../test/support/openapi';
import { writtenBack } from '../document.testing';
import { markdownToDocument } from '../from-markdown';
import { gitbookDocument } from '../gitbook-document';

/** The block types of a document, depth first (fragments included), code lines left out. */
const types = (markdown: string): string[] => {
  const out: string[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach(walk);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    const n = node as { object?: string; type?: string; nodes?: unknown; fragments?: unknown };
    if (n.object === 'block' && n.type !== 'code-line') out.push(n.type as string);
    walk(n.fragments);
    walk(n.nodes);
  };
  walk(markdownToDocument(markdown).document.nodes);
  return out;
};

const MATH = '$$\nx^2\n$$';
const INLINE = 'a <mark style="color:red;">red</mark> $$y_1$$ b <a href="/x" class="button primary">Go</a>';
const DETAILS = '<details>\n<summary>T <strong>b</strong></summary>\n\nbody *x*\n\n</details>';
const FIGURE = '<figure><img src="a.png" alt="A"><figcaption><p>Cap <em>x</em></p></figcaption></figure>';
const LOOSE = '* a\n\n* b';
const TABS = '{% tabs %}\n{% tab title="A" %}\nta\n{% endtab %}\n{% endtabs %}';
const HINT = '{% hint style="info" %}\nh $$z$$\n{% endhint %}';
const STEPPER = '{% stepper %}\n{% step %}\ns\n{% endstep %}\n{% endstepper %}';
const EMBED = '{% embed url="https://e.com" %}';
const CODE = '{% code title="a.js" %}\n```js\nx\n```\n{% endcode %}';

const indent = (markdown: string, by: string) =>
  markdown
    .split('\n')
    .map((line) => (line ? by + line : line))
    .join('\n');
const tagContainers: Record<string, (b: string) => string> = {
  hint: (b) => `{% hint style="warning" %}\n${b}\n{% endhint %}`,
  tab: (b) => `{% tabs %}\n{% tab title="A" %}\n${b}\n{% endtab %}\n{% endtabs %}`,
  step: (b) => `{% stepper %}\n{% step %}\n${b}\n{% endstep %}\n{% endstepper %}`,
  column: (b) => `{% columns %}\n{% column %}\n${b}\n{% endcolumn %}\n{% endcolumns %}`,
  'hint in a list item': (b) => `* item\n\n  {% hint style="info" %}\n${indent(b, '  ')}\n  {% endhint %}`,
};
const htmlContainers: Record<string, (b: string) => string> = {
  details: (b) => `<details>\n<summary>S</summary>\n\n${b}\n\n</details>`,
  'details in a details': (b) =>
    `<details>\n<summary>O</summary>\n\n<details>\n<summary>I</summary>\n\n${b}\n\n</details>\n\n</details>`,
  'details in a list item': (b) =>
    `* item\n\n  <details>\n  <summary>S</summary>\n\n${indent(b, '  ')}\n\n  </details>`,
};

describe("GitBook's HTML constructs and math in its block tags", () => {
  const cases = Object.entries(tagContainers).flatMap(([container, wrap]) =>
    Object.entries({ MATH, INLINE, DETAILS, FIGURE, LOOSE }).map(([inner, b]) => [
      `${inner} in a ${container}`,
      wrap(b),
    ]),
  );
  it.each(cases)('%s', (_name, markdown) => {
    writtenBack(markdown);
  });

  it('reads math in a hint, a tab and a step as a math block there', () => {
    expect(types(tagContainers.hint(MATH))).toEqual(['hint', 'math']);
    expect(types(tagContainers.tab(MATH))).toEqual(['tabs', 'tabs-item', 'math']);
    expect(types(tagContainers.step(MATH))).toEqual(['stepper', 'stepper-step', 'math']);
  });

  it('reads a figure, or an image alone in its paragraph, in a tab, a step or a column as an image block', () => {
    expect(types(tagContainers.step(FIGURE))).toEqual([
      'stepper',
      'stepper-step',
      'images',
      'image',
      'paragraph',
    ]);
    expect(types(tagContainers.tab(FIGURE))).toEqual(['tabs', 'tabs-item', 'images', 'image', 'paragraph']);
    expect(types(tagContainers.column('![a](b.png)'))).toEqual(['columns', 'column', 'images', 'image']);
    // GitBook has no image in a hint: the figure stays HTML there, an image inline.
    expect(types(tagContainers.hint(FIGURE))).toEqual(['hint', 'code']);
    expect(types(tagContainers.hint('![a](b.png)'))).toEqual(['hint', 'paragraph']);
  });

  it('ends a block of HTML at a tag line, as GitBook writes a figure or a details before a close tag', () => {
    expect(writtenBack(tagContainers.step(FIGURE))).toBe(
      `{% stepper %}\n{% step %}\n${FIGURE}\n\n{% endstep %}\n{% endstepper %}\n`,
    );
    expect(types(tagContainers.tab(DETAILS))).toEqual([
      'tabs',
      'tabs-item',
      'expandable',
      'paragraph',
      'paragraph',
    ]);
    // Steps one after another, the HTML of each right before its close tag.
    const steps = `{% stepper %}\n{% step %}\n${FIGURE}\n{% endstep %}\n{% step %}\n### Two\n${FIGURE}\n{% endstep %}\n{% endstepper %}`;
    expect(types(steps)).toEqual([
      'stepper',
      'stepper-step',
      'images',
      'image',
      'paragraph',
      'stepper-step',
      'heading-3',
      'images',
      'image',
      'paragraph',
    ]);
    writtenBack(steps);
    // Not in HTML that ends at a marker of its own (a comment), nor an unknown tag.
    expect(types('<!--\n{% endhint %}\n-->')).toEqual(['code']);
    expect(types('<div>\n{% include "x" %}\n</div>')).toEqual(['code']);
  });

  it('ends blocks of HTML at tag lines in linear time, however many tag lines one block holds', () => {
    const time = (markdown: string) => {
      const start = performance.now();
      markdownToDocument(markdown);
      return performance.now() - start;
    };
    const n = 20_000;
    const plain = time('<div>\nhint\n'.repeat(n));
    expect(time('<div>\n{% hint style="info" %}\n'.repeat(n))).toBeLessThan(3 * plain + 1000);
  }, 60_000);

  it('answers math where GitBook has none (a hint) as its formula inline, in the hint', () => {
    const view = gitbookDocument(markdownToDocument(tagContainers.hint(`a\n\n${MATH}`)).document);
    expect(view.nodes).toHaveLength(1);
    const hint = view.nodes[0] as { type: string; nodes: { type: string; nodes: { type: string }[] }[] };
    expect(hint.type).toBe('hint');
    expect(hint.nodes.map((n) => n.type)).toEqual(['paragraph', 'paragraph']);
    expect(hint.nodes[1].nodes.map((n) => n.type)).toContain('inline-math');
  });
});

describe("GitBook's block tags in its HTML constructs", () => {
  const cases = Object.entries(htmlContainers).flatMap(([container, wrap]) =>
    Object.entries({ TABS, HINT, STEPPER, EMBED, CODE, MATH }).map(([inner, b]) => [
      `${inner} in a ${container}`,
      wrap(b),
    ]),
  );
  it.each(cases)('%s', (_name, markdown) => {
    writtenBack(markdown);
  });

  it('reads tabs, a stepper and a hint in a details as those blocks in its body', () => {
    expect(types(htmlContainers.details(TABS))).toEqual([
      'expandable',
      'paragraph',
      'tabs',
      'tabs-item',
      'paragraph',
    ]);
    expect(types(htmlContainers.details(HINT))).toEqual(['expandable', 'paragraph', 'hint', 'paragraph']);
  });

  it('answers tabs in a details (GitBook has none there) with their content', () => {
    const view = gitbookDocument(markdownToDocument(htmlContainers.details(TABS)).document);
    expect(schemaProblem('JSONDocument', view)).toBeUndefined();
    const [expandable] = view.nodes as { fragments: { nodes: { type: string }[] }[] }[];
    expect(expandable.fragments[1].nodes.map((n) => n.type)).toEqual(['paragraph']);
  });
});
