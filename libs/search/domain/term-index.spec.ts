import fc from 'fast-check';
import type { Posting } from './indexing';
import { packPostings, postingOrder, unpackPostings } from './packed';
import { type PageTerms, TermIndex } from './term-index';

/** A posting of `term` in `pageId`, `hits` times in its section `s`. */
const posting = (term: string, pageId: string, hits: number, length = 100, titleHits = 0): Posting => ({
  term,
  pageId,
  titleHits,
  bodyHits: hits,
  sections: { s: hits },
  length,
});

/** A page's postings as its document stores them (every posting in section `s`). */
const page = (pageId: string, list: Posting[]): PageTerms => ({
  pageId,
  length: list[0]?.length ?? 0,
  sectionIds: ['s'],
  postings: packPostings(list, ['s']),
});

/** A term's postings in their order, as ids (page ids) and the count of pages holding it. */
const listed = (index: TermIndex, term: string, candidates = 100) => {
  const found = index.postings(term, candidates);
  return { count: found.count, pages: found.postings.map((p) => p.pageId) };
};

describe('packed postings', () => {
  it('store a page’s postings and give them back the same, sections by position', () => {
    const list: Posting[] = [
      {
        term: 'deploy',
        pageId: 'p1',
        titleHits: 1,
        bodyHits: 3,
        sections: { '': 1, install: 2 },
        length: 40,
      },
      { term: 'proto', pageId: 'p1', titleHits: 0, bodyHits: 1, sections: { __proto__: 1 }, length: 40 },
      { term: 'title', pageId: 'p1', titleHits: 1, bodyHits: 0, sections: {}, length: 40 },
    ];
    // Built as `postings` builds them: `__proto__` an own key.
    list[1].sections = Object.fromEntries([['__proto__', 1]]);
    const ids = ['', 'install', '__proto__'];
    const packed = packPostings(list, ids);
    expect(packed).toEqual(['deploy', 1, 3, 2, 0, 1, 1, 2, 'proto', 0, 1, 1, 2, 1, 'title', 1, 0, 0]);
    const back = unpackPostings(JSON.parse(JSON.stringify(packed)), 'p1', 40, ids);
    expect(back).toEqual(list);
    expect(Object.keys(back[1].sections)).toEqual(['__proto__']);
    expect(() => packPostings(list, [''])).toThrow(/unknown section/);
  });

  it('order a term’s postings by impact: title hits first, then more hits, then shorter pages', () => {
    const title = postingOrder(posting('t', 'a', 0, 100, 1));
    const many = postingOrder(posting('t', 'b', 3));
    const one = postingOrder(posting('t', 'c', 1));
    const oneLong = postingOrder(posting('t', 'd', 1, 1000));
    expect([title, many, one, oneLong]).toEqual([...[title, many, one, oneLong]].sort((x, y) => x - y));
    expect(new Set([title, many, one, oneLong]).size).toBe(4);
  });
});

describe('TermIndex', () => {
  it('lists a term’s postings best first, ties by page, with how many pages hold it', () => {
    const index = TermIndex.of([
      page('p3', [posting('deploy', 'p3', 1), posting('guide', 'p3', 1)]),
      page('p1', [posting('deploy', 'p1', 1)]),
      page('p2', [posting('deploy', 'p2', 4)]),
    ]);
    // Hits by section are built when asked for.
    const [best] = index.postings('deploy', 1).postings;
    expect({ ...best, sections: best.sections }).toEqual(posting('deploy', 'p2', 4));
    expect(listed(index, 'deploy')).toEqual({ count: 3, pages: ['p2', 'p1', 'p3'] });
    expect(listed(index, 'deploy', 2)).toEqual({ count: 3, pages: ['p2', 'p1'] });
    expect(listed(index, 'guide')).toEqual({ count: 1, pages: ['p3'] });
    expect(listed(index, 'missing')).toEqual({ count: 0, pages: [] });
    expect(index.size).toBe(4);
  });

  it('replaces a page’s postings, and takes a page out with none', () => {
    const index = TermIndex.of([
      page('p1', [posting('deploy', 'p1', 1), posting('guide', 'p1', 1)]),
      page('p2', [posting('deploy', 'p2', 2)]),
    ]);
    index.set('p1', page('p1', [posting('deploy', 'p1', 5), posting('install', 'p1', 1)]));
    expect(listed(index, 'deploy').pages).toEqual(['p1', 'p2']);
    expect(listed(index, 'guide')).toEqual({ count: 0, pages: [] });
    expect(listed(index, 'install').pages).toEqual(['p1']);
    // A term's list tells when it changed: `guide` went with p1's old postings, `install` came with its new.
    const guide = index.changes('guide');
    const install = index.changes('install');
    index.set('p2', undefined);
    expect(listed(index, 'deploy')).toEqual({ count: 1, pages: ['p1'] });
    expect([index.changes('guide'), index.changes('install')]).toEqual([guide, install]);
    expect(index.changes('deploy')).toBeGreaterThan(0);
    expect(index.changes('missing')).toBe(-1);
    expect(index.size).toBe(2);
    expect(() => index.set('p3', page('p4', [posting('x', 'p4', 1)]))).toThrow(/given for p3/);
  });

  it('comes to the same lists page by page as built at once, whatever the order of the changes', () => {
    const change = fc.record({
      page: fc.integer({ min: 0, max: 29 }),
      terms: fc.uniqueArray(
        fc.record({ term: fc.integer({ min: 0, max: 7 }), hits: fc.integer({ min: 1, max: 3 }) }),
        {
          selector: (t) => t.term,
          maxLength: 6,
        },
      ),
      length: fc.integer({ min: 10, max: 59 }),
    });
    fc.assert(
      fc.property(fc.array(change, { maxLength: 200 }), (changes) => {
        const pages = new Map<string, Posting[]>();
        const index = TermIndex.of([]);
        for (const { page: n, terms, length } of changes) {
          const pageId = `p${n}`;
          const list = terms.map(({ term, hits }) => posting(`t${term}`, pageId, hits, length));
          index.set(pageId, page(pageId, list));
          pages.set(pageId, list);
        }
        const built = TermIndex.of([...pages].map(([id, list]) => page(id, list)));
        expect(index.size).toBe(built.size);
        for (let t = 0; t < 8; t++) expect(listed(index, `t${t}`)).toEqual(listed(built, `t${t}`));
      }),
    );
  });
});
