import { markdownToDocument } from '@app/documents/document';
import { pageForIndex, postings } from './indexing';

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
  it('has a posting per term: title and body hits, hits per section, the page length', () => {
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
      },
      {
        term: 'run',
        pageId: 'p1',
        titleHits: 1,
        bodyHits: 2,
        sections: { '': 1, 'server-options': 1 },
        length: 8,
      },
      {
        term: 'server',
        pageId: 'p1',
        titleHits: 1,
        bodyHits: 2,
        sections: { '': 1, 'server-options': 1 },
        length: 8,
      },
    ]);
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
