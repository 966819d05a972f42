import { DomainError } from '@app/platform/domain/decider';
import { markdownToDocument } from './from-markdown';
import { documentToMarkdown } from './to-markdown';

const frontmatterOf = (markdown: string) => markdownToDocument(markdown).frontmatter;

describe('frontmatter', () => {
  it('reads YAML into an object: strings, numbers, booleans, lists and mappings', () => {
    expect(
      frontmatterOf(
        '---\ntitle: Getting started\norder: 2\nhidden: false\ntags:\n  - a\n  - b\nlayout:\n  cover: true\n---\n',
      ),
    ).toEqual({
      title: 'Getting started',
      order: 2,
      hidden: false,
      tags: ['a', 'b'],
      layout: { cover: true },
    });
  });

  it('keeps dates and ambiguous scalars as YAML 1.2 reads them (strings, not Date objects)', () => {
    expect(frontmatterOf('---\ndate: 2024-01-02\nanswer: yes\n---\n')).toEqual({
      date: '2024-01-02',
      answer: 'yes',
    });
  });

  it('writes an object back as YAML that reads back the same', () => {
    const data = {
      title: 'A: b',
      answer: 'yes',
      n: '1',
      list: ['x', 'y'],
      nested: { deep: [1, { a: null }] },
    };
    const markdown = documentToMarkdown({ object: 'document', data: {}, nodes: [] }, data);
    expect(markdown).toBe(
      '---\ntitle: "A: b"\nanswer: yes\nn: "1"\nlist:\n  - x\n  - y\nnested:\n  deep:\n    - 1\n    - a: null\n---\n',
    );
    expect(frontmatterOf(markdown)).toEqual(data);
  });

  it('reads no frontmatter, or an empty one, as an empty object, and writes none for it', () => {
    expect(frontmatterOf('# Title')).toEqual({});
    expect(frontmatterOf('---\n---\n\n# Title')).toEqual({});
    expect(documentToMarkdown(markdownToDocument('---\n---\n\n# Title').document, {})).toBe('# Title\n');
  });

  it('takes frontmatter only at the very start', () => {
    const { document, frontmatter } = markdownToDocument('# Title\n\n---\na: 1\n---\n');
    expect(frontmatter).toEqual({});
    expect(document.nodes.map((n) => n.type)).toEqual(['heading-1', 'divider', 'heading-2']);
  });

  it.each([
    ['invalid YAML', '---\ntitle: [unclosed\n---\n', /frontmatter is not valid YAML/],
    ['a list', '---\n- a\n- b\n---\n', /frontmatter must be a YAML mapping/],
    ['a scalar', '---\njust text\n---\n', /frontmatter must be a YAML mapping/],
    ['a duplicate field', '---\na: 1\na: 2\n---\n', /frontmatter is not valid YAML/],
  ])('refuses %s as an invalid write', (_, markdown, message) => {
    expect(() => markdownToDocument(markdown)).toThrow(message);
    expect(() => markdownToDocument(markdown)).toThrow(expect.objectContaining({ kind: 'invalid' }));
    expect(() => markdownToDocument(markdown)).toThrow(DomainError);
  });
});
