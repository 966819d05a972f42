import { type Document, markdownToDocument } from '@app/documents/document';
import { readPdf } from './read-pdf.testing';
import { type PdfPage, renderPdf } from './render-pdf';

const createdAt = new Date('2024-05-06T07:08:09Z');
const page = (title: string, markdown?: string, depth = 0): PdfPage => ({
  title,
  depth,
  ...(markdown === undefined ? {} : { document: markdownToDocument(markdown).document }),
});

/** Each of `parts` is in `text`, in this order. */
function expectInOrder(text: string, parts: readonly string[]): void {
  let from = 0;
  for (const part of parts) {
    const at = text.indexOf(part, from);
    if (at < 0) throw new Error(`${JSON.stringify(part)} not found after position ${from} in:\n${text}`);
    from = at + part.length;
  }
}

const collapse = (text: string) => text.replace(/\s+/g, ' ');

describe('renderPdf', () => {
  it('renders each page under its title, its blocks in order', async () => {
    const pages = [
      page(
        'Getting started',
        [
          '# Install',
          '',
          'Run the **installer** with *care* and `--force`, see [the docs](https://example.com/docs).',
          '',
          '* first item',
          '* second item',
          '  1. nested one',
          '  2. nested two',
          '',
          '- [x] done task',
          '- [ ] open task',
          '',
          '```js',
          'const answer = 42;',
          '\tindented();',
          '```',
          '',
          '> A quoted line.',
          '',
          '---',
          '',
          '| Name | Value |',
          '| --- | --- |',
          '| alpha | one |',
          '| beta | two |',
          '',
          '![A diagram](https://example.com/d.png "The caption")',
          '',
          'A claim[^1] to check.',
          '',
          '[^1]: The footnote body.',
        ].join('\n'),
      ),
      page('Guides', undefined),
      page('Deep dive', '## Section\n\nBody of the deep dive.', 1),
    ];
    const pdf = readPdf(await renderPdf(pages, { title: 'My docs', createdAt }));

    expect(pdf.pages).toHaveLength(3);
    expect(pdf.pages.map((p) => p.text.split('\n')[0])).toEqual(['Getting started', 'Guides', 'Deep dive']);
    expectInOrder(collapse(pdf.pages[0].text), [
      'Getting started',
      'Install',
      'Run the installer with care and --force, see the docs.',
      'first item',
      'second item',
      '1.',
      'nested one',
      '2.',
      'nested two',
      'done task',
      'open task',
      'const answer = 42;',
      'indented();',
      'A quoted line.',
      'Name | Value',
      'alpha | one',
      'beta | two',
      'Image: A diagram — The caption',
      'A claim1 to check.',
      '1 The footnote body.',
    ]);
    // Code keeps its indentation (a tab is 4 columns).
    const items = pdf.pages[0].items;
    const x = (str: string) => items.find((item) => item.str.includes(str))?.x as number;
    expect(x('indented();') - x('const')).toBeCloseTo(4 * 0.6 * 9, 1);
    expect(pdf.pages[1].text).not.toContain('Deep dive');
    expectInOrder(collapse(pdf.pages[2].text), ['Deep dive', 'Section', 'Body of the deep dive.', '3 / 3']);
    expect(pdf.info).toMatchObject({
      Title: 'My docs',
      Producer: 'docs-hub',
      CreationDate: 'D:20240506070809Z',
      ModDate: 'D:20240506070809Z',
    });
    expect(pdf.outline).toEqual([
      { title: 'Getting started', items: [] },
      { title: 'Guides', items: [{ title: 'Deep dive', items: [] }] },
    ]);
  });

  it('renders GitBook blocks Markdown has no syntax for', async () => {
    const text = (value: string) => ({
      object: 'text',
      leaves: [{ object: 'leaf', text: value, marks: [] }],
    });
    const paragraph = (value: string) => ({
      object: 'block',
      type: 'paragraph',
      data: {},
      nodes: [text(value)],
    });
    const document = {
      object: 'document',
      data: {},
      nodes: [
        { object: 'block', type: 'hint', data: { style: 'warning' }, nodes: [paragraph('Mind the gap.')] },
        {
          object: 'block',
          type: 'tabs',
          nodes: [
            {
              object: 'block',
              type: 'tabs-item',
              data: { title: 'macOS' },
              nodes: [paragraph('brew install')],
            },
            {
              object: 'block',
              type: 'tabs-item',
              data: { title: 'Linux' },
              nodes: [paragraph('apt install')],
            },
          ],
        },
        {
          object: 'block',
          type: 'expandable',
          isVoid: true,
          data: {},
          fragments: [
            {
              object: 'fragment',
              fragment: 'expandable-title',
              type: 'expandable-title',
              nodes: [paragraph('More')],
            },
            {
              object: 'fragment',
              fragment: 'expandable-body',
              type: 'expandable-body',
              nodes: [paragraph('Hidden')],
            },
          ],
        },
        { object: 'block', type: 'math', isVoid: true, data: { formula: 'e = mc^2' } },
        { object: 'block', type: 'embed', isVoid: true, data: { url: 'https://example.com/video' } },
        {
          object: 'block',
          type: 'paragraph',
          data: {},
          nodes: [
            text('Smile '),
            { object: 'inline', type: 'emoji', isVoid: true, data: { code: '1f600' } },
            text(' and '),
            { object: 'inline', type: 'inline-math', isVoid: true, data: { formula: 'x^2' } },
          ],
        },
      ],
    } as unknown as Document;
    const pdf = readPdf(
      await renderPdf([{ title: 'Blocks', depth: 0, document }], { title: 'T', createdAt }),
    );
    expectInOrder(collapse(pdf.pages[0].text), [
      'Blocks',
      'Mind the gap.',
      'macOS',
      'brew install',
      'Linux',
      'apt install',
      'More',
      'Hidden',
      'e = mc^2',
      'https://example.com/video',
      'Smile ? and x^2',
    ]);
  });

  it('wraps long text within the margins and onto further pages', async () => {
    const words = Array.from({ length: 3000 }, (_, i) => `word${i}`);
    const paragraphs = Array.from({ length: 30 }, (_, i) => words.slice(i * 100, (i + 1) * 100).join(' '));
    const longCode = `\`\`\`\n${'x'.repeat(400)}\n\`\`\``;
    const longWord = 'y'.repeat(300);
    const bytes = await renderPdf(
      [page('Long', [...paragraphs, longCode, longWord].join('\n\n')), page('After', 'The end.')],
      { title: 'Long', createdAt },
    );
    const pdf = readPdf(bytes);

    expect(pdf.pages.length).toBeGreaterThan(3);
    expect(pdf.pages[0].text.startsWith('Long')).toBe(true);
    expect(pdf.pages.at(-1)?.text.startsWith('After')).toBe(true);
    const body = pdf.pages
      .slice(0, -1)
      .map((p) => p.text)
      .join('\n');
    // Every word, in order; lines break between words, not inside them.
    expectInOrder(body, words);
    expect(body.replace(/\s+/g, '')).toContain('x'.repeat(400));
    expect(body.replace(/\s+/g, '')).toContain(longWord);
    for (const p of pdf.pages) {
      for (const item of p.items) expect(item.x + item.width).toBeLessThanOrEqual(p.width - 56 + 0.5);
    }
  });

  it('replaces what the standard fonts cannot write', async () => {
    const pdf = readPdf(
      await renderPdf(
        [
          page(
            'Émoji 🎉 and 日本語',
            'Café 👍🏽 ok → next, 漢字 and ｆｕｌｌ and ő and ﬁne.\n\n```\n→ 🎉\n```',
          ),
        ],
        { title: 'Ünïcode 🎉', createdAt },
      ),
    );
    expectInOrder(pdf.pages[0].text, [
      'Émoji ? and ???',
      'Café ? ok -> next, ?? and full and o and fine.',
      '-> ?',
    ]);
    // Metadata and bookmarks are UTF-16: they keep every character.
    expect(pdf.info.Title).toBe('Ünïcode 🎉');
    expect(pdf.outline[0].title).toBe('Émoji 🎉 and 日本語');
  });

  it('gives a valid PDF of one page for no pages', async () => {
    const pdf = readPdf(await renderPdf([], { title: 'Empty space', createdAt }));
    expect(pdf.pages).toHaveLength(1);
    expect(pdf.pages[0].text).toContain('Empty space');
    expect(pdf.info.Title).toBe('Empty space');
    expect(pdf.outline).toEqual([]);
  });

  it('gives the same bytes for the same input', async () => {
    const pages = [
      page('One', '# Hello\n\nSome *text* and [a link](https://example.com).'),
      page('Two', undefined, 1),
    ];
    const first = await renderPdf(pages, { title: 'Same', createdAt });
    const second = await renderPdf(structuredClone(pages), { title: 'Same', createdAt: new Date(createdAt) });
    expect(Buffer.from(second).equals(Buffer.from(first))).toBe(true);
    const later = await renderPdf(pages, { title: 'Same', createdAt: new Date('2025-01-01T00:00:00Z') });
    expect(Buffer.from(later).equals(Buffer.from(first))).toBe(false);
  });
});
