/**
 * The attributes of GitBook's dialect that its block data has a field for: a column's `width` and
 * `valign`, a tab's and a hint's `icon`, `fullWidth` on embeds, tabs, columns and OpenAPI blocks, an
 * OpenAPI block's `expanded`, a figure image's `width` and `height`.
 * Each is read into its field, written back in GitBook's spelling, and survives both round trips; a value
 * the field cannot hold is dropped, the block staying a block.
 */
import fc from 'fast-check';
import { schemaProblem } from '../../../../test/support/openapi';
import type { Document } from '../document';
import { leaf, nodesOf, paragraph, withoutKeys, writtenBack } from '../document.testing';
import { markdownToDocument } from '../from-markdown';
import { gitbookDocument } from '../gitbook-document';
import { DEFAULT_MARKDOWN_LIMITS, markdownProblem } from '../markdown-limits';
import { normalizeMarkdown } from '../markdown-syntax';
import { documentToMarkdown } from '../to-markdown';
import { iconOf, type Length, lengthOf, lengthText } from './attribute-values';

const columns = (...open: string[]) =>
  `{% columns %}\n${open.map((tag, i) => `${tag}\nc${i}\n{% endcolumn %}`).join('\n\n')}\n{% endcolumns %}`;
const figure = (img: string) => `<figure>${img}<figcaption><p>Cap</p></figcaption></figure>`;

/**
 * A document GitBook could have made, valid under its schema → Markdown → document: the same nodes as
 * GitBook has them (keys are the reader's; a figure's `markdown` extension aside), and its Markdown stable.
 */
function readBack(document: Document): Document {
  expect(schemaProblem('JSONDocument', document)).toBeUndefined();
  const again = markdownToDocument(documentToMarkdown(document)).document;
  expect(withoutKeys(gitbookDocument(again).nodes)).toEqual(withoutKeys(document.nodes));
  expect(markdownToDocument(documentToMarkdown(again)).document).toEqual(again);
  return again;
}

/** Pixels, or a percentage Markdown can write (not one so small `String` gives it an exponent). */
const anyLength: fc.Arbitrary<Length> = fc.oneof(
  fc.integer({ min: 0, max: 100_000 }),
  fc
    .double({ min: 0, max: 100, noNaN: true })
    .filter((value) => !String(value).includes('e'))
    .map((value) => ({ value, unit: '%' })),
);

/** An image block of one image with this data, no caption. */
const images = (data: object) => ({
  object: 'block',
  type: 'images',
  isVoid: false,
  data: {},
  nodes: [{ object: 'block', type: 'image', isVoid: true, data, fragments: [] }],
});
const doc = (...nodes: object[]) => ({ object: 'document', data: {}, nodes }) as unknown as Document;
const para = (text: string) => paragraph(leaf(text));

describe('attribute values', () => {
  it('reads pixels as a number and a percentage as {value, unit: "%"}', () => {
    expect(lengthOf('375')).toBe(375);
    expect(lengthOf('66.66666666666666%')).toEqual({ value: 66.66666666666666, unit: '%' });
    expect(lengthText({ value: 50, unit: '%' })).toBe('50%');
    expect(lengthText(375)).toBe('375');
  });

  it('reads no length from anything else, and writes none Markdown cannot read back', () => {
    for (const text of ['', 'auto', '50px', '-5', '1e3', '5%%', '%', '0.00000001', '9'.repeat(17)])
      expect(lengthOf(text)).toBeUndefined();
    for (const length of [
      -1,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      1e-7,
      1e21,
      { value: 3, unit: 'rem' },
      '5',
    ])
      expect(lengthText(length)).toBeUndefined();
  });

  it('reads back every length it writes, and writes one form for every length it reads', () => {
    fc.assert(
      fc.property(anyLength, (value) => {
        expect(lengthOf(lengthText(value) as string)).toEqual(value);
      }),
    );
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'0123456789.%-e x') }), (text) => {
        const read = lengthOf(text);
        if (read === undefined) return;
        const written = lengthText(read) as string;
        expect(lengthOf(written)).toEqual(read);
      }),
    );
  });

  it("takes icon names as GitBook's schema has them", () => {
    expect(iconOf('book-open')).toBe('book-open');
    for (const name of ['Book', 'a b', '-x', 'x-', 'a--b', '', 'a'.repeat(51), 3])
      expect(iconOf(name)).toBeUndefined();
  });
});

describe('a column: width and valign', () => {
  it('reads them into width (a Length) and verticalAlignment', () => {
    const [group] = nodesOf(
      columns('{% column width="66.66666666666666%" valign="middle" %}', '{% column width="320" %}'),
    );
    expect(group.nodes.map((column: { data: object }) => column.data)).toEqual([
      { width: { value: 66.66666666666666, unit: '%' }, verticalAlignment: 'middle' },
      { width: 320 },
    ]);
  });

  it('writes them back in that spelling and order', () => {
    const markdown = columns('{% column valign="bottom" width="50%" %}', '{% column width="50%" %}');
    expect(writtenBack(markdown, { canonical: true })).toBe(
      '{% columns %}\n{% column width="50%" valign="bottom" %}\nc0\n{% endcolumn %}\n\n{% column width="50%" %}\nc1\n{% endcolumn %}\n{% endcolumns %}\n',
    );
  });

  it('drops a value the field cannot hold, the column staying a column', () => {
    const markdown = columns('{% column width="wide" valign="sideways" %}');
    expect(nodesOf(markdown)[0].nodes[0].data).toEqual({});
    expect(writtenBack(markdown, { canonical: true })).toBe(
      '{% columns %}\n{% column %}\nc0\n{% endcolumn %}\n{% endcolumns %}\n',
    );
  });
});

describe('a tab and a hint: icon', () => {
  it('reads icon into data.icon and writes it back after the title or style', () => {
    const tabs = '{% tabs %}\n{% tab icon="gear" title="A" %}\nx\n{% endtab %}\n{% endtabs %}';
    expect(nodesOf(tabs)[0].nodes[0].data).toEqual({ title: 'A', icon: 'gear' });
    expect(writtenBack(tabs, { canonical: true })).toBe(
      '{% tabs %}\n{% tab title="A" icon="gear" %}\nx\n{% endtab %}\n{% endtabs %}\n',
    );
    const hint = '{% hint icon="circle-exclamation" style="danger" %}\nh\n{% endhint %}';
    expect(nodesOf(hint)[0].data).toEqual({ style: 'danger', icon: 'circle-exclamation' });
    expect(writtenBack(hint, { canonical: true })).toBe(
      '{% hint style="danger" icon="circle-exclamation" %}\nh\n{% endhint %}\n',
    );
  });

  it('drops an icon that is not a name, the block staying a block', () => {
    const hint = '{% hint style="info" icon="Not An Icon" %}\nh\n{% endhint %}';
    expect(nodesOf(hint)[0]).toMatchObject({ type: 'hint', data: { style: 'info' } });
    expect(nodesOf(hint)[0].data).not.toHaveProperty('icon');
    expect(writtenBack(hint, { canonical: true })).toBe('{% hint style="info" %}\nh\n{% endhint %}\n');
    const tabs = '{% tabs %}\n{% tab title="A" icon="" %}\nx\n{% endtab %}\n{% endtabs %}';
    expect(nodesOf(tabs)[0].nodes[0].data).toEqual({ title: 'A' });
  });
});

describe('an embed: fullWidth', () => {
  it('reads fullWidth as a boolean, as {% code %} does, and writes it back', () => {
    for (const value of [true, false]) {
      const markdown = `{% embed url="https://e.com/v" fullWidth="${value}" %}`;
      expect(nodesOf(markdown)[0]).toEqual({
        object: 'block',
        type: 'embed',
        isVoid: true,
        data: { url: 'https://e.com/v', fullWidth: value },
      });
      expect(writtenBack(markdown, { canonical: true })).toBe(`${markdown}\n`);
    }
  });

  it('drops a value that is not a boolean', () => {
    const markdown = '{% embed url="https://e.com/v" fullWidth="yes" %}';
    expect(nodesOf(markdown)[0].data).toEqual({ url: 'https://e.com/v' });
    expect(writtenBack(markdown, { canonical: true })).toBe('{% embed url="https://e.com/v" %}\n');
  });
});

describe('tabs, columns and OpenAPI blocks: fullWidth, and expanded', () => {
  it("reads them as booleans into the group or block, and writes them back in GitBook's order", () => {
    const tabs = '{% tabs fullWidth="true" %}\n{% tab title="A" %}\nx\n{% endtab %}\n{% endtabs %}';
    expect(nodesOf(tabs)[0].data).toEqual({ fullWidth: true });
    expect(writtenBack(tabs, { canonical: true })).toBe(`${tabs}\n`);
    const group = '{% columns fullWidth="false" %}\n{% column %}\nx\n{% endcolumn %}\n{% endcolumns %}';
    expect(nodesOf(group)[0].data).toEqual({ fullWidth: false });
    expect(writtenBack(group, { canonical: true })).toBe(`${group}\n`);
    const swagger =
      '{% swagger src="api.yaml" path="/pets" method="get" fullWidth="true" expanded="true" %}\n[api.yaml](api.yaml)\n{% endswagger %}';
    expect(nodesOf(swagger)[0]).toMatchObject({
      type: 'swagger',
      data: { path: '/pets', method: 'get', expanded: true, fullWidth: true },
    });
    expect(writtenBack(swagger, { canonical: true })).toBe(
      '{% openapi src="api.yaml" path="/pets" method="get" expanded="true" fullWidth="true" %}\n[api.yaml](api.yaml)\n{% endopenapi %}\n',
    );
  });

  it('drops a value that is not a boolean', () => {
    const tabs = '{% tabs fullWidth="wide" %}\n{% tab title="A" %}\nx\n{% endtab %}\n{% endtabs %}';
    expect(nodesOf(tabs)[0]).toMatchObject({ type: 'tabs', data: {} });
    expect(nodesOf(tabs)[0].data).toEqual({});
  });
});

describe("a figure's image: width and height", () => {
  it('reads them into the image block, and writes the figure with them', () => {
    const markdown = figure('<img src="a.png" alt="A" width="375" height="50%">');
    const [images] = nodesOf(markdown);
    expect(images.nodes[0].data).toEqual({
      ref: { kind: 'url', url: 'a.png' },
      alt: 'A',
      width: 375,
      height: { value: 50, unit: '%' },
    });
    expect(writtenBack(markdown)).toBe(`${markdown}\n`);
  });

  it('drops a size that is not a length; another attribute keeps the figure HTML', () => {
    const [images] = nodesOf(figure('<img src="a.png" alt="" width="auto">'));
    expect(images.nodes[0].data).toEqual({ ref: { kind: 'url', url: 'a.png' } });
    expect(writtenBack(figure('<img src="a.png" alt="" width="auto">'))).toBe(
      `${figure('<img src="a.png" alt="">')}\n`,
    );
    expect(nodesOf(figure('<img src="a.png" width="3" class="x">'))[0].type).toBe('code');
  });

  it('writes an image made with a size as a figure (image syntax has no size)', () => {
    const image = images({ ref: { kind: 'url', url: 'a.png' }, width: 120 });
    expect(documentToMarkdown(doc(image))).toBe(
      '<figure><img src="a.png" alt="" width="120"><figcaption></figcaption></figure>\n',
    );
    const [read] = markdownToDocument(documentToMarkdown(doc(image))).document.nodes;
    expect((read as { nodes: { data: object }[] }).nodes[0].data).toEqual(image.nodes[0].data);
  });
});

describe('documents GitBook made, with each attribute', () => {
  it('are valid under its schema and read back equal from their Markdown', () => {
    const document = doc(
      {
        object: 'block',
        type: 'columns',
        isVoid: false,
        data: { fullWidth: true },
        nodes: [
          {
            object: 'block',
            type: 'column',
            data: { width: { value: 33.5, unit: '%' }, verticalAlignment: 'top' },
            nodes: [para('a')],
          },
          { object: 'block', type: 'column', data: { width: 400 }, nodes: [para('b')] },
        ],
      },
      {
        object: 'block',
        type: 'tabs',
        data: { fullWidth: false },
        nodes: [
          { object: 'block', type: 'tabs-item', data: { title: 'T', icon: 'rocket' }, nodes: [para('t')] },
        ],
      },
      {
        object: 'block',
        type: 'swagger',
        isVoid: true,
        data: {
          ref: { kind: 'url', url: 'https://e.com/api.yaml' },
          path: '/pets',
          method: 'get',
          expanded: true,
          fullWidth: false,
        },
      },
      { object: 'block', type: 'hint', data: { style: 'success', icon: 'check' }, nodes: [para('h')] },
      { object: 'block', type: 'embed', isVoid: true, data: { url: 'https://e.com', fullWidth: true } },
      images({ ref: { kind: 'url', url: 'i.png' }, alt: 'I', width: 200, height: 100 }),
    );
    const again = readBack(document);
    expect(schemaProblem('JSONDocument', gitbookDocument(again))).toBeUndefined();
  });

  it('read back equal for any valid values (property)', () => {
    const icon = fc.constantFrom('gear', 'book-open', 'x2', 'a-b-c');
    const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });
    const defined = (data: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(data).filter(([, v]) => v !== undefined));
    const column = fc
      .record({
        width: maybe(anyLength),
        verticalAlignment: maybe(fc.constantFrom('top', 'middle', 'bottom')),
      })
      .map((data) => ({ object: 'block', type: 'column', data: defined(data), nodes: [para('c')] }));
    /** A `fullWidth` or none. */
    const wide = maybe(fc.boolean()).map((fullWidth) => defined({ fullWidth }));
    const block = fc.oneof(
      fc
        .tuple(fc.array(column, { minLength: 1, maxLength: 3 }), wide)
        .map(([nodes, w]) => ({ object: 'block', type: 'columns', isVoid: false, data: w, nodes })),
      fc.tuple(maybe(icon), wide).map(([i, w]) => ({
        object: 'block',
        type: 'tabs',
        data: w,
        nodes: [
          { object: 'block', type: 'tabs-item', data: defined({ title: 'T', icon: i }), nodes: [para('t')] },
        ],
      })),
      maybe(icon).map((i) => ({
        object: 'block',
        type: 'hint',
        data: defined({ style: 'warning', icon: i }),
        nodes: [para('h')],
      })),
      wide.map((w) => ({
        object: 'block',
        type: 'embed',
        isVoid: true,
        data: { url: 'https://e.com', ...w },
      })),
      fc.tuple(maybe(fc.boolean()), wide).map(([expanded, w]) => ({
        object: 'block',
        type: 'swagger',
        isVoid: true,
        data: {
          ref: { kind: 'url', url: 'api.yaml' },
          path: '/x',
          method: 'get',
          ...defined({ expanded }),
          ...w,
        },
      })),
      fc
        .record({ width: maybe(anyLength), height: maybe(anyLength) })
        .map((size) => images({ ref: { kind: 'url', url: 'i.png' }, ...defined(size) })),
    );
    fc.assert(
      fc.property(fc.array(block, { minLength: 1, maxLength: 4 }), (nodes) => {
        const again = readBack(doc(...nodes));
        expect(documentToMarkdown(again)).toBe(normalizeMarkdown(documentToMarkdown(again)));
      }),
    );
  });
});

describe('hostile attributes', () => {
  it('are dropped, in time linear in their length, the blocks staying blocks', () => {
    const long = '9'.repeat(200_000);
    const markdown = `${columns(`{% column width="${long}%" valign="${'m'.repeat(200_000)}" %}`)}\n\n{% hint style="info" icon="${'a-'.repeat(100_000)}a" %}\nh\n{% endhint %}`;
    expect(markdownProblem(markdown, DEFAULT_MARKDOWN_LIMITS)).toBeUndefined();
    const started = performance.now();
    const [group, hint] = nodesOf(markdown);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(group.nodes[0]).toMatchObject({ type: 'column', data: {} });
    expect(group.nodes[0].data).toEqual({});
    expect(hint.data).toEqual({ style: 'info' });
  });
});
