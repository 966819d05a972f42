import { documentHeadings, documentText } from './document-text';
import { markdownToDocument } from './from-markdown';

const read = (markdown: string) => markdownToDocument(markdown).document;

describe('documentText', () => {
  it('is the text of every block, a line each, without Markdown syntax', () => {
    const document = read(
      [
        '# Install *it*',
        'Run [the **tool**](https://x.y) now,\nplease.',
        '* one\n* two\n  > quoted',
        '```sh\nnpm i\nnpm t\n```',
        '| Name | Size |\n| - | - |\n| a | `1` |',
        '![Alt](i.png "Caption")',
        'Noted[^n].\n\n[^n]: The note.',
      ].join('\n\n'),
    );
    expect(documentText(document)).toBe(
      [
        'Install it',
        'Run the tool now, please.',
        'one',
        'two',
        'quoted',
        'npm i',
        'npm t',
        'Name',
        'Size',
        'a',
        '1',
        'Caption',
        'Notedn.',
        'The note.',
      ].join('\n'),
    );
  });

  it('is empty for an empty document', () => {
    expect(documentText(read(''))).toBe('');
  });
});

describe('documentHeadings', () => {
  it('lists every heading, nested ones too, with GitHub-style anchors unique in the page', () => {
    const document = read('# Intro\n\n## API *v2*\n\n> ### Intro\n\n#### Deep: a/b\n\n## Intro');
    expect(
      documentHeadings(document).map(({ key, ...heading }) => ({
        ...heading,
        keyed: typeof key === 'string',
      })),
    ).toEqual([
      { level: 1, text: 'Intro', anchor: 'intro', keyed: true },
      { level: 2, text: 'API v2', anchor: 'api-v2', keyed: true },
      { level: 3, text: 'Intro', anchor: 'intro-1', keyed: true },
      { level: 3, text: 'Deep: a/b', anchor: 'deep-ab', keyed: true },
      { level: 2, text: 'Intro', anchor: 'intro-2', keyed: true },
    ]);
  });

  it("takes a heading's own id as its anchor", () => {
    const document = read('# Title');
    const heading = document.nodes[0] as { data: { id?: string } };
    heading.data.id = 'custom';
    expect(documentHeadings(document)[0].anchor).toBe('custom');
  });
});
