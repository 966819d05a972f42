import fc from 'fast-check';
import { terms } from './analysis';
import { type IndexedPage, type Posting, postings } from './indexing';
import { closeness, holdsSequence, impact, K1, longestRun, rank, sectionsOf } from './ranking';

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

describe('rank, with the query words in sequence', () => {
  /** `count` filler words from `from` on: terms of their own, holding no query word. */
  const fill = (from: number, count: number) =>
    Array.from({ length: count }, (_, i) => `filler${from + i}`).join(' ');

  it('puts the page holding the words as a sequence first, whatever the pages’ lengths and term frequencies', () => {
    const words = ['rotate', 'access', 'token'];
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: 0, max: 400 }),
        fc.array(
          fc.record({
            hits: fc.tuple(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 12 })),
            gap: fc.integer({ min: 1, max: 30 }),
            length: fc.integer({ min: 0, max: 400 }),
            titled: fc.boolean(),
          }),
          { minLength: 1, maxLength: 6 },
        ),
        fc.integer({ min: 2, max: 3 }),
        (before, after, others, size) => {
          const phrase = words.slice(0, size);
          const pages = [
            page('sequence', 'Guide', `${fill(0, before)} ${phrase.join(' ')} ${fill(1000, after)}`),
            ...others.map(({ hits, gap, length, titled }, n) => {
              // Each word many times, never next to the one after it in the query.
              const body = phrase
                .flatMap((word, w) =>
                  Array.from({ length: hits[w % 2] }, (_, i) => `${word} ${fill(n * 100 + w * 10 + i, gap)}`),
                )
                .join(' ');
              return page(`scattered${n}`, titled ? phrase[0] : 'Notes', `${body} ${fill(5000, length)}`);
            }),
          ];
          const ranked = search(phrase.join(' '), pages);
          expect(ranked[0].pageId).toBe('sequence');
          expect(ranked[0].phrase).toBe(size);
        },
      ),
    );
  });

  it('reads the sequence after analysis: stop words between the words, and stemmed forms', () => {
    const pages = [
      page(
        'scattered',
        'Tokens',
        `Rotate ${fill(0, 10)} access ${fill(20, 10)} token tokens tokens access rotate`,
      ),
      page('sequence', 'Security', `You can rotate the access tokens of a team. ${fill(40, 30)}`),
    ];
    for (const query of [
      'rotate access token',
      'rotating the access tokens',
      'Rotated access-token',
      'rotate an access token',
    ])
      expect([query, ids(query, pages)]).toEqual([query, ['sequence', 'scattered']]);
  });

  it('finds a sequence in the title and in any section, never across them', () => {
    const pages = [
      page('title', 'Access token', fill(0, 50)),
      page('section', 'Guide', fill(0, 20), `Create an access token here. ${fill(30, 5)}`),
      page('across', 'Access', `Token ${fill(0, 20)} access`, `token ${fill(40, 20)}`),
    ];
    const ranked = search('access token', pages);
    expect(ranked.map((result) => [result.pageId, result.phrase])).toEqual([
      ['title', 2],
      ['section', 2],
      ['across', 1],
    ]);
  });

  it('ranks the words close together above the same words apart, and in the query’s order above the reverse', () => {
    const pages = [
      page('apart', 'A', `deploy ${fill(0, 40)} app ${fill(100, 2)}`),
      page('close', 'B', `deploy ${fill(0, 2)} app ${fill(100, 40)}`),
      page('reversed', 'C', `app deploy ${fill(0, 42)}`),
      page('sequence', 'D', `deploy app ${fill(0, 42)}`),
    ];
    expect(ids('deploy app', pages)).toEqual(['sequence', 'reversed', 'close', 'apart']);
    const score = (id: string) =>
      search('deploy app', pages).find((result) => result.pageId === id)?.score ?? 0;
    expect(score('close')).toBeGreaterThan(score('apart'));
  });

  it('keeps the ranking of one word and of words that no page holds in sequence', () => {
    const pages = [page('a', 'Alpha', 'deploy the app'), page('b', 'Beta', 'deploy deploy')];
    expect(search('deploy', pages).map((result) => result.phrase)).toEqual([1, 1]);
    expect(ids('deploy', pages)).toEqual(['b', 'a']);
    // A query word no page holds is left out of the sequence too.
    expect(ids('deploy zzyzx app', pages)).toEqual(['a', 'b']);
    expect(search('deploy zzyzx app', pages)[0].phrase).toBe(2);
  });

  it('requires a quoted phrase when asked to', () => {
    const pages = [
      page('sequence', 'A', 'Rotate the access token.'),
      page('scattered', 'B', 'Access rotate token token token.'),
    ];
    const { postingsByTerm, stats } = index(pages);
    const query = terms('"access token" rotate', 'en');
    const required = (phrases: string[][]) =>
      rank(query, postingsByTerm, stats, new Map(), { phrases }).map((result) => result.pageId);
    expect(required([['access', 'token']])).toEqual(['sequence']);
    expect(required([['token', 'access']])).toEqual([]);
    expect(required([['rotat']])).toEqual(['sequence', 'scattered']);
    expect(required([['zzyzx']])).toEqual([]);
  });
});

describe('positions', () => {
  it('tell a sequence, the longest run of one, and how close two words are', () => {
    expect(holdsSequence([[3, 9], [10], [11, 20]])).toBe(true);
    expect(holdsSequence([[3], [5], [6]])).toBe(false);
    expect(holdsSequence([[3], undefined])).toBe(false);
    // A word repeated in the sequence: the same positions twice.
    expect(
      holdsSequence([
        [4, 5],
        [4, 5],
      ]),
    ).toBe(true);
    expect(longestRun([[3], [5], [6]])).toBe(2);
    expect(longestRun([[3], [4], [9]])).toBe(2);
    expect(longestRun([undefined, [4], [5], [6]])).toBe(3);
    expect(longestRun([[1], [9]])).toBe(1);
    expect(longestRun([undefined, undefined])).toBe(0);
    expect(closeness([0], [1])).toBe(1);
    expect(closeness([0], [2])).toBe(1 / 4);
    // Before rather than after: one more.
    expect(closeness([1], [0])).toBe(1 / 4);
    expect(closeness([0], [40])).toBe(0);
    expect(closeness([0, 10], [1, 12])).toBe(1 + 1 / 4);
  });
});
