import { markdownToDocument } from '@app/documents/document';
import { FIELD_GAP, type IndexedPage, MAX_POSITIONS, pageForIndex, postings } from './indexing';

const page = { id: 'p1', title: 'Getting started', path: 'getting-started' };
const read = (markdown: string) => markdownToDocument(markdown).document;

describe('pageForIndex', () => {
  it('cuts the page at its headings, each section keyed by its anchor', () => {
    const document = read(
      [
        'Welcome to the docs.',
        '# Install',
        'Run `npm i`.',
        '* then **this**',
        '## Configure it',
        '| Key | Value |\n| - | - |\n| port | 80 |',
        '# Install',
      ].join('\n\n'),
    );
    expect(pageForIndex(page, document)).toEqual({
      pageId: 'p1',
      title: 'Getting started',
      path: 'getting-started',
      sections: [
        { id: '', title: '', body: 'Welcome to the docs.' },
        { id: 'install', title: 'Install', body: 'Run npm i.\nthen this' },
        { id: 'configure-it', title: 'Configure it', body: 'Key\nValue\nport\n80' },
        { id: 'install-1', title: 'Install', body: '' },
      ],
    });
  });

  it('has no intro section when the page starts with a heading', () => {
    expect(pageForIndex(page, read('# Only\n\nText')).sections).toEqual([
      { id: 'only', title: 'Only', body: 'Text' },
    ]);
  });

  it('opens a block holding a heading, so that the nested heading starts its section', () => {
    const document = read('> Quoted intro\n>\n> ## Inside\n>\n> Quoted body\n\nAfter');
    expect(pageForIndex(page, document).sections).toEqual([
      { id: '', title: '', body: 'Quoted intro' },
      { id: 'inside', title: 'Inside', body: 'Quoted body\nAfter' },
    ]);
  });

  it("takes a heading's own id as its section id", () => {
    const document = read('# Title\n\nBody');
    (document.nodes[0] as { data: { id?: string } }).data.id = 'custom';
    expect(pageForIndex(page, document).sections[0].id).toBe('custom');
  });

  it('gives a page without a document its title only', () => {
    expect(pageForIndex({ id: 'p2', title: 'Link' }, undefined)).toEqual({
      pageId: 'p2',
      title: 'Link',
      sections: [],
    });
  });
});

describe('postings', () => {
  it('has a posting per term: title and body hits, hits per section, the page length, its positions', () => {
    const indexed = pageForIndex(
      { id: 'p1', title: 'Running the server' },
      read('The server runs.\n\n# Server options\n\nRun it with options.'),
    );
    // Terms: title run, server; intro server, run; section server, option, run, option.
    expect(postings(indexed, 'en')).toEqual([
      {
        term: 'option',
        pageId: 'p1',
        titleHits: 0,
        bodyHits: 2,
        sections: { 'server-options': 2 },
        length: 8,
        positions: [53, 71],
      },
      {
        term: 'run',
        pageId: 'p1',
        titleHits: 1,
        bodyHits: 2,
        sections: { '': 1, 'server-options': 1 },
        length: 8,
        positions: [0, 35, 70],
      },
      {
        term: 'server',
        pageId: 'p1',
        titleHits: 1,
        bodyHits: 2,
        sections: { '': 1, 'server-options': 1 },
        length: 8,
        positions: [1, 34, 52],
      },
    ]);
  });

  it('places terms in order, stop words left out, and the title, headings and texts apart', () => {
    const page: IndexedPage = {
      pageId: 'p',
      title: 'Install the CLI',
      sections: [{ id: 'next', title: 'Then', body: 'Run the tool, then install it.' }],
    };
    const at = (term: string) => postings(page, 'en').find((posting) => posting.term === term)?.positions;
    // Title: instal 0, cli 1; the heading (only a stop word) after a gap; its text after another.
    const text = 2 + 2 * FIELD_GAP;
    expect(at('instal')).toEqual([0, text + 2]);
    expect(at('cli')).toEqual([1]);
    expect(at('run')).toEqual([text]);
    expect(at('tool')).toEqual([text + 1]);
  });

  it('keeps the first MAX_POSITIONS positions of a term', () => {
    const page: IndexedPage = {
      pageId: 'p',
      title: '',
      sections: [{ id: '', title: '', body: 'deploy '.repeat(MAX_POSITIONS + 10) }],
    };
    const [posting] = postings(page, 'en');
    expect(posting.bodyHits).toBe(MAX_POSITIONS + 10);
    expect(posting.positions).toHaveLength(MAX_POSITIONS);
    expect(posting.positions?.[0]).toBe(2 * FIELD_GAP);
  });

  it('keeps an anchor named like an object property a plain key', () => {
    const [posting] = postings(
      { pageId: 'p', title: '', sections: [{ id: '__proto__', title: 'x', body: '' }] },
      'en',
    );
    expect(Object.keys(posting.sections)).toEqual(['__proto__']);
    expect(JSON.parse(JSON.stringify(posting)).sections).toEqual(JSON.parse('{"__proto__":1}'));
  });

  it('is empty for a page without words', () => {
    expect(postings({ pageId: 'p', title: '', sections: [] })).toEqual([]);
  });
});
