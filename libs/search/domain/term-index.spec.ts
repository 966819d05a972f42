import fc from 'fast-check';
import { FIELD_GAP, type IndexedPage, type Posting, postings } from './indexing';
import { packPositions, packPostings, positionsAt, postingOrder, unpackPostings } from './packed';
import { candidatesFor, type PageTerms, TermIndex } from './term-index';

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

  it('store positions as text, about two characters each, and give them back', () => {
    const at = (term: string, positions: number[]): Posting => ({ ...posting(term, 'p', 1), positions });
    const list = [at('a', [0, 1, 31, 32, 1_000, 40_000_000]), at('b', []), at('c', [7])];
    const text = packPositions(list);
    expect(text).toMatch(/^[0-9a-vA-Z\-_.~+=]+$/);
    expect(unpackPostings(packPostings(list, ['s']), 'p', 100, ['s'], text)).toEqual(list);
    fc.assert(
      fc.property(fc.uniqueArray(fc.nat({ max: 2 ** 31 - 1 }), { maxLength: 50 }), (values) => {
        const positions = [...values].sort((x, y) => x - y);
        expect(positionsAt(packPositions([at('t', positions)]), 0)).toEqual(positions);
      }),
    );
    // A 2 KB page's: some 300 positions, mostly under 32 apart.
    const page: IndexedPage = {
      pageId: 'p',
      title: 'Guide',
      sections: [{ id: '', title: '', body: Array.from({ length: 300 }, (_, i) => `w${i % 150}`).join(' ') }],
    };
    expect(packPositions(postings(page, 'en')).length).toBeLessThan(2.5 * 301);
    // Postings stored without positions read without them.
    expect(unpackPostings(packPostings(list, ['s']), 'p', 100, ['s'])[0].positions).toBeUndefined();
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

describe('TermIndex phrases', () => {
  /** Where a page's text starts, after its (empty) title and its first section's heading. */
  const TEXT = 2 * FIELD_GAP;
  const pageOf = (pageId: string, body: string, stored = true): PageTerms => {
    const list = postings({ pageId, title: '', sections: [{ id: '', title: '', body }] }, 'en');
    return {
      pageId,
      length: list[0]?.length ?? 0,
      sectionIds: [''],
      postings: packPostings(list, ['']),
      ...(stored ? { positions: packPositions(list) } : {}),
    };
  };

  it('finds the pages holding a sequence, past the best postings of its terms', () => {
    const pages = [
      ...Array.from({ length: 30 }, (_, i) => pageOf(`many${i}`, 'access access filler token token token')),
      pageOf('sequence', `access token ${'filler '.repeat(50)}`),
      pageOf('reversed', 'token access'),
      pageOf('old', 'access token', false),
    ];
    const index = TermIndex.of(pages);
    // Its terms' 5 best postings miss it.
    expect(index.postings('access', 5).postings.map((p) => p.pageId)).not.toContain('sequence');
    const found = index.phrase(['access', 'token'], 10, 1_000);
    expect(found.count).toBe(1);
    expect(found.postings.get('access')?.map((p) => [p.pageId, p.positions])).toEqual([['sequence', [TEXT]]]);
    expect(found.postings.get('token')?.map((p) => [p.pageId, p.positions])).toEqual([
      ['sequence', [TEXT + 1]],
    ]);
    expect(index.phrase(['token', 'access'], 10, 1_000).count).toBe(1);
    expect(index.phrase(['access', 'missing'], 10, 1_000).count).toBe(0);
    expect(index.phrase(['access'], 10, 1_000).count).toBe(0);
    // At most `scan` pages of the rarest term are looked through, `limit` kept.
    expect(index.phrase(['access', 'token'], 10, 2).count).toBe(0);
    expect(index.phrase(['token', 'token'], 0, 1_000).count).toBe(30);
    expect(index.phrase(['token', 'token'], 0, 1_000).postings.get('token')).toEqual([]);

    const { byTerm, holding } = candidatesFor(index, ['access', 'token'], 5);
    expect(holding.get('access')).toBe(33);
    expect(byTerm.get('access')?.map((p) => p.pageId)).toContain('sequence');
  });

  it('finds a page’s terms again after it changed', () => {
    const index = TermIndex.of([pageOf('p1', 'access token'), pageOf('p2', 'token access')]);
    index.set('p1', pageOf('p1', 'token access'));
    index.set('p2', pageOf('p2', 'new access token here'));
    const found = index.phrase(['access', 'token'], 10, 1_000);
    expect(found.postings.get('token')?.map((p) => [p.pageId, p.positions])).toEqual([['p2', [TEXT + 2]]]);
  });
});
