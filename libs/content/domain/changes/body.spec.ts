import { markdownToDocument } from '@app/documents/document';
import { type ConvertedMarkdown, markdownOfChanges, ParsedBodies, readBody } from './body';

describe('ParsedBodies', () => {
  const markdown = { markdown: '# Title\n\nSome *text*.\n' };
  const hostile = { markdown: '>'.repeat(100) };
  const broken = { markdown: 42 };
  const changes = [
    { operation: 'update_page', page: 'p1', document: markdown },
    { operation: 'insert_page', document: broken },
    { operation: 'insert_page', document: hostile },
    { operation: 'delete_page', page: 'p2' },
  ];
  const converted: ConvertedMarkdown = new Map([
    [markdown.markdown, { json: JSON.stringify(markdownToDocument(markdown.markdown)) }],
    [hostile.markdown, { refused: 'nests 100 block quotes or lists, at most 32' }],
  ]);

  it('lists the Markdown of the bodies to convert ahead', () => {
    expect(markdownOfChanges(changes)).toEqual([markdown.markdown, hostile.markdown]);
    expect(markdownOfChanges('not a list')).toEqual([]);
    expect(markdownOfChanges([null, 3, { document: 'x' }, { document: { markdown: 'a', x: 1 } }])).toEqual(
      [],
    );
  });

  it('hands out each body converted ahead, the same as reading it, and a fresh copy each time', () => {
    const bodies = new ParsedBodies(converted);
    const first = bodies.take(markdown, 'changes[0].document');
    expect(first).toEqual(readBody(markdown, 'changes[0].document'));
    const second = bodies.take(markdown, 'changes[0].document');
    expect(second).toEqual(first);
    expect(second).not.toBe(first);
  });

  it('reports a refused conversion, or a body that is not one, with its path where the batch reaches it', () => {
    const bodies = new ParsedBodies(converted);
    expect(() => bodies.take(hostile, 'changes[2].document')).toThrow(
      'changes[2].document.markdown: nests 100 block quotes or lists, at most 32',
    );
    expect(() => bodies.take(broken, 'changes[1].document')).toThrow(/changes\[1\]\.document/);
    expect(bodies.take({}, 'changes[0].document')).toEqual({ kind: 'empty' });
  });

  it('never converts on the spot Markdown it was not given converted', () => {
    expect(() => new ParsedBodies(new Map()).take(markdown, 'd')).toThrow(/not converted/);
  });
});
