import { terms } from './analysis';
import { type IndexedPage, type Posting, postings } from './indexing';
import { impact, K1, rank, sectionsOf } from './ranking';

/** What the read model would hold for these pages: postings by term, and the page count and mean length. */
function index(pages: IndexedPage[]) {
  const postingsByTerm = new Map<string, Posting[]>();
  let total = 0;
  for (const page of pages) {
    const list = postings(page, 'en');
    total += list[0]?.length ?? 0;
    for (const posting of list)
      postingsByTerm.set(posting.term, [...(postingsByTerm.get(posting.term) ?? []), posting]);
  }
  return { postingsByTerm, stats: { pages: pages.length, averageLength: total / pages.length } };
}

const page = (pageId: string, title: string, ...bodies: string[]): IndexedPage => ({
  pageId,
  title,
  sections: bodies.map((body, i) => ({ id: i ? `s${i}` : '', title: '', body })),
});

const search = (query: string, pages: IndexedPage[]) => {
  const { postingsByTerm, stats } = index(pages);
  return rank(terms(query, 'en'), postingsByTerm, stats);
};
const ids = (query: string, pages: IndexedPage[]) => search(query, pages).map((result) => result.pageId);

const filler = (words: number) => Array.from({ length: words }, (_, i) => `word${i}`).join(' ');

describe('rank', () => {
  it('puts a page whose title holds the term above pages that only mention it', () => {
    const pages = [
      page('body', 'Overview', 'Webhooks. Webhooks send events; configure webhooks here.'),
      page('title', 'Webhooks', `An introduction. ${filler(200)}`),
      page('other', 'Other', filler(10)),
    ];
    expect(ids('webhook', pages)).toEqual(['title', 'body']);
    expect(search('webhook', pages).map((result) => result.titleMatch)).toEqual([true, false]);
  });

  it('puts pages that hold more of the query terms first', () => {
    const pages = [
      page('one', 'Install', 'Install, install, install: how to install everything.'),
      page('both', 'Setup', 'You can install it with Docker.'),
    ];
    expect(search('install docker', pages).map(({ pageId, matchedTerms }) => [pageId, matchedTerms])).toEqual(
      [
        ['both', 2],
        ['one', 1],
      ],
    );
  });

  it('still finds the pages matching the other terms when a query word matches nothing', () => {
    const pages = [page('a', 'Install', 'Install it.'), page('b', 'Usage', 'After you install it, use it.')];
    expect(ids('install zzyzx', pages)).toEqual(['a', 'b']);
    expect(search('install zzyzx', pages)).toEqual(search('install', pages));
    expect(ids('zzyzx', pages)).toEqual([]);
    expect(rank([], new Map(), { pages: 0, averageLength: 0 })).toEqual([]);
  });

  it('saturates term frequency: each more hit adds less, and never past a bound', () => {
    const posting = (pageId: string, bodyHits: number): Posting => ({
      term: 't',
      pageId,
      titleHits: 0,
      bodyHits,
      sections: { '': bodyHits },
      length: 100,
    });
    const hits = [1, 2, 3, 10, 1000];
    const ranked = rank(['t'], new Map([['t', hits.map((n) => posting(`p${n}`, n))]]), {
      pages: 50,
      averageLength: 100,
    });
    const score = (n: number) => ranked.find((result) => result.pageId === `p${n}`)?.score ?? 0;
    expect(ranked.map((result) => result.pageId)).toEqual(['p1000', 'p10', 'p3', 'p2', 'p1']);
    expect(score(2) - score(1)).toBeGreaterThan(score(3) - score(2));
    expect(score(1000)).toBeLessThan((K1 + 1) * score(1));
  });

  it('favours the shorter of two pages with as many hits', () => {
    const pages = [page('long', 'A', `Deploy. ${filler(300)}`), page('short', 'B', `Deploy. ${filler(5)}`)];
    expect(ids('deploy', pages)).toEqual(['short', 'long']);
  });

  it('weighs a rare term above a common one', () => {
    const pages = [
      page('common', 'Alpha', 'Guide guide'),
      page('rare', 'Beta', 'Kubernetes guide'),
      page('c', 'Gamma', 'Guide'),
      page('d', 'Delta', 'Guide'),
    ];
    const [first, ...rest] = search('guide kubernetes', pages);
    expect(first.pageId).toBe('rare');
    expect(rest.map((result) => result.pageId)).toEqual(['common', 'c', 'd']);
  });

  it('breaks ties by page id, whatever the order of postings and query terms', () => {
    const pages = ['c', 'a', 'b'].map((id) => page(id, 'Same', 'Same text about tokens and limits'));
    expect(ids('token limit', pages)).toEqual(['a', 'b', 'c']);
    expect(ids('limit token', [...pages].reverse())).toEqual(['a', 'b', 'c']);
    const scores = search('token limit', pages).map((result) => result.score);
    expect(new Set(scores).size).toBe(1);
  });

  it('reports the sections that hold the hits, best first', () => {
    const pages: IndexedPage[] = [
      {
        pageId: 'p',
        title: 'Guide',
        sections: [
          { id: '', title: '', body: 'Intro without it.' },
          { id: 'tokens', title: 'Tokens', body: 'Create a token.' },
          { id: 'limits', title: 'Limits', body: 'Token limits and rate limits.' },
        ],
      },
    ];
    expect(sectionsOf(search('token limit', pages)[0]).map((section) => section.id)).toEqual([
      'limits',
      'tokens',
    ]);
    expect(sectionsOf(search('create', pages)[0]).map((section) => section.id)).toEqual(['tokens']);
    // A title-only hit has no section.
    expect(sectionsOf(search('guide', pages)[0])).toEqual([]);
  });

  it('copes with stats that lag behind the postings', () => {
    const { postingsByTerm } = index([page('a', 'Alpha', 'x'), page('b', 'Alpha', 'y')]);
    const [result] = rank(['alpha'], postingsByTerm, { pages: 0, averageLength: 0 });
    expect(result.score).toBeGreaterThan(0);
    expect(Number.isFinite(result.score)).toBe(true);
  });

  it('ranks the best postings of a common term as well as all of them, with its rarity from the count', () => {
    const pages = Array.from({ length: 60 }, (_, i) =>
      page(
        `p${String(i).padStart(2, '0')}`,
        i % 7 ? 'Notes' : 'Webhooks',
        `${'webhook '.repeat(1 + (i % 5))}${filler(i)}`,
      ),
    );
    const { postingsByTerm, stats } = index(pages);
    const all = postingsByTerm.get('webhook') ?? [];
    // What a query reads: the 10 best by impact (computed against any fixed length), and how many there are.
    const best = [...all].sort((a, b) => impact(b, 300) - impact(a, 300)).slice(0, 10);
    const whole = rank(['webhook'], postingsByTerm, stats);
    const read = rank(['webhook'], new Map([['webhook', best]]), stats, new Map([['webhook', all.length]]));
    expect(read).toEqual(whole.slice(0, 10));
  });
});
