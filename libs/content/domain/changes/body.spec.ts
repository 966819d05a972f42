import { ParsedBodies, readBody } from './body';

describe('ParsedBodies', () => {
  const markdown = { markdown: '# Title\n\nSome *text*.\n' };
  const broken = { markdown: 42 };
  const changes = [
    { operation: 'update_page', page: 'p1', document: markdown },
    { operation: 'insert_page', document: broken },
    { operation: 'delete_page', page: 'p2' },
  ];

  it('hands out each body parsed ahead once, the same as reading it, then reads it again', () => {
    const bodies = new ParsedBodies(changes);
    const first = bodies.take(markdown, 'changes[0].document');
    expect(first).toEqual(readBody(markdown, 'changes[0].document'));
    const second = bodies.take(markdown, 'changes[0].document');
    expect(second).toEqual(first);
    expect(second).not.toBe(first);
  });

  it('leaves a body that does not parse to be reported where the batch reaches it, with its path', () => {
    const bodies = new ParsedBodies(changes);
    expect(() => bodies.take(broken, 'changes[1].document')).toThrow(/changes\[1\]\.document/);
  });

  it('takes anything as changes, and reads a body it was not given', () => {
    const bodies = new ParsedBodies('not a list');
    expect(bodies.take({}, 'changes[0].document')).toEqual({ kind: 'empty' });
    expect(new ParsedBodies([null, 3, { document: 'x' }]).take(markdown, 'd')).toEqual(
      readBody(markdown, 'd'),
    );
  });
});
