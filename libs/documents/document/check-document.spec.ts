import { checkDocument } from './check-document';
import { markdownToDocument } from './from-markdown';

const doc = (nodes: unknown[]) => ({ object: 'document', data: {}, nodes });

describe('checkDocument', () => {
  it('accepts what Markdown converts to, tables, images and marks included', () => {
    const { document } = markdownToDocument(
      '# T\n\nSome **bold** [link](https://x.y).\n\n| a | b |\n| - | - |\n| 1 | 2 |\n\n![alt](https://x.y/i.png)\n',
    );
    expect(checkDocument(document, 'd')).toBe(document);
  });

  it.each([
    [5, 'd: must be a document'],
    [doc([5]), 'd.nodes[0]: must be an object'],
    [doc([{ object: 'block' }]), 'd.nodes[0].type: must be a string'],
    [
      doc([{ object: 'block', type: 'paragraph', nodes: [{ object: 'text' }] }]),
      'd.nodes[0].nodes[0].leaves: must be a list',
    ],
    [doc([{ object: 'block', type: 'heading-1', nodes: 'x' }]), 'd.nodes[0].nodes: must be a list'],
    [
      doc([{ object: 'block', type: 'images', fragments: [{ nodes: [] }] }]),
      'd.nodes[0].fragments[0]: must be',
    ],
    [
      doc([{ object: 'text', leaves: [{ object: 'leaf', text: 'x', marks: [{ type: 1 }] }] }]),
      'marks[0]: must be',
    ],
  ])('refuses %j, naming where', (value, message) => {
    expect(() => checkDocument(value, 'd')).toThrow(message);
  });

  it('refuses nesting past its bound', () => {
    let node: Record<string, unknown> = { object: 'block', type: 'paragraph', nodes: [] };
    for (let i = 0; i < 70; i++) node = { object: 'block', type: 'blockquote', nodes: [node] };
    expect(() => checkDocument(doc([node]), 'd')).toThrow(/deeper than 64/);
  });
});
