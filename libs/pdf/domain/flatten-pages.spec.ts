import { flattenPages } from './flatten-pages';

describe('flattenPages', () => {
  it('lists documents and groups in reading order with their depth, skipping links', () => {
    const tree = [
      {
        title: 'Intro',
        type: 'document',
        documentId: 'd1',
        pages: [
          { title: 'Child', type: 'document', documentId: 'd2', pages: [] },
          { title: 'Elsewhere', type: 'link', pages: [] },
          {
            title: 'Child 2',
            type: 'document',
            documentId: 'd3',
            pages: [{ title: 'Grandchild', type: 'document', documentId: 'd4', pages: [] }],
          },
        ],
      },
      { title: 'External', type: 'link', pages: [] },
      {
        title: 'Guides',
        type: 'group',
        pages: [{ title: 'Guide', type: 'document', documentId: 'd5', pages: [] }],
      },
    ];
    expect(flattenPages(tree)).toEqual([
      { title: 'Intro', depth: 0, documentId: 'd1' },
      { title: 'Child', depth: 1, documentId: 'd2' },
      { title: 'Child 2', depth: 1, documentId: 'd3' },
      { title: 'Grandchild', depth: 2, documentId: 'd4' },
      { title: 'Guides', depth: 0 },
      { title: 'Guide', depth: 1, documentId: 'd5' },
    ]);
  });

  it('gives nothing for an empty tree', () => {
    expect(flattenPages([])).toEqual([]);
  });
});
