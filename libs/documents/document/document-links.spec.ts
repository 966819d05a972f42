import type { Document } from './document';
import { documentLinks } from './document-links';
import { markdownToDocument } from './from-markdown';

describe('documentLinks', () => {
  it('finds every link and image of a document read from Markdown, in document order', () => {
    const { document } = markdownToDocument(
      [
        '![Logo](logo.png)',
        'See [docs](/docs/page) and <https://example.com>, ![icon](i.svg).',
        '* [nested](#anchor)',
        '| [cell](c.md) |\n| - |',
        'Note[^1].\n\n[^1]: [in a footnote](f.md)',
      ].join('\n\n'),
    );
    expect(
      documentLinks(document).map(({ ref, node, key }) => ({ ref, node, keyed: typeof key === 'string' })),
    ).toEqual([
      { ref: { kind: 'url', url: 'logo.png' }, node: 'image', keyed: true },
      { ref: { kind: 'url', url: '/docs/page' }, node: 'link', keyed: true },
      { ref: { kind: 'url', url: 'https://example.com' }, node: 'link', keyed: true },
      { ref: { kind: 'url', url: 'i.svg' }, node: 'inline-image', keyed: true },
      { ref: { kind: 'url', url: '#anchor' }, node: 'link', keyed: true },
      { ref: { kind: 'url', url: 'c.md' }, node: 'link', keyed: true },
      { ref: { kind: 'url', url: 'f.md' }, node: 'link', keyed: true },
    ]);
  });

  it("finds GitBook's other references: pages, files, dark images, embeds, mentions, table cells", () => {
    const document = {
      object: 'document',
      data: {},
      nodes: [
        {
          object: 'block',
          type: 'images',
          isVoid: false,
          data: {},
          nodes: [
            {
              object: 'block',
              type: 'image',
              isVoid: true,
              data: { ref: { kind: 'file', file: 'f1' }, refDark: { kind: 'file', file: 'f2' } },
              fragments: [],
            },
          ],
        },
        { object: 'block', type: 'embed', isVoid: true, data: { url: 'https://video' } },
        { object: 'block', type: 'content-ref', isVoid: true, data: { ref: { kind: 'page', page: 'p1' } } },
        {
          object: 'block',
          type: 'paragraph',
          nodes: [
            { object: 'inline', type: 'mention', isVoid: true, data: { ref: { kind: 'user', user: 'u1' } } },
          ],
        },
        {
          object: 'block',
          type: 'table',
          isVoid: true,
          data: {
            view: { type: 'grid', columns: ['c'], hideHeader: false },
            definition: { c: { id: 'c', title: 'Ref', type: 'content-ref' } },
            records: { r: { orderIndex: 'a0', values: { c: { kind: 'space', space: 's1' } } } },
          },
          fragments: [],
        },
      ],
    } as unknown as Document;
    expect(documentLinks(document).map((link) => [link.node, link.ref])).toEqual([
      ['image', { kind: 'file', file: 'f1' }],
      ['image', { kind: 'file', file: 'f2' }],
      ['embed', { kind: 'url', url: 'https://video' }],
      ['content-ref', { kind: 'page', page: 'p1' }],
      ['mention', { kind: 'user', user: 'u1' }],
      ['table', { kind: 'space', space: 's1' }],
    ]);
  });
});
