import { terms } from './analysis';
import { type IndexedPage, postings } from './indexing';
import { packPositions, packPostings } from './packed';
import { rank } from './ranking';
import { candidatesFor, TermIndex } from './term-index';

/**
 * Phrase queries over a generated corpus: each phrase is a sequence of common words held, as a sequence,
 * by one page only, while most pages hold its words apart (often many times). The share of phrases whose
 * page ranks first is what phrase-aware ranking is for.
 */

/** mulberry32: seeded, so that every run draws the same corpus. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ren', 'tas', 'vo', 'shi', 'dun', 'pel', 'mar'];
/** A word of a rank, made of syllables (as the benchmarks' generated prose). */
const word = (rank: number) => {
  let out = '';
  for (let n = rank + SYLLABLES.length; n > 0; n = Math.floor(n / SYLLABLES.length))
    out = SYLLABLES[n % SYLLABLES.length] + out;
  return out;
};

const VOCABULARY = 2_000;
/** Stop words mixed into the prose, as real documentation has them. */
const STOP = ['the', 'a', 'of', 'to', 'in', 'is', 'and'];

interface Corpus {
  pages: IndexedPage[];
  /** Phrases as typed, each with the one page holding its words as a sequence. */
  phrases: Array<{ query: string; pageId: string }>;
}

/** `count` pages of generated prose with `phrases` phrases of common words, each planted in one page. */
function corpus(seed: number, count: number, phrases: number): Corpus {
  const next = random(seed);
  const zipf = () => Math.floor(Math.exp(next() * Math.log(VOCABULARY + 1))) - 1;
  const prose = (words: number) =>
    Array.from({ length: words }, () =>
      next() < 0.25 ? STOP[Math.floor(next() * STOP.length)] : word(zipf()),
    );
  const bodies = Array.from({ length: count }, () => prose(60 + Math.floor(next() * 600)));
  const titles = Array.from({ length: count }, () => prose(2 + Math.floor(next() * 3)));
  const analysed = (words: string[]) => terms(words.join(' '), 'en').join(' ');
  const planted: Corpus['phrases'] = [];
  for (let tries = 0; planted.length < phrases && tries < phrases * 50; tries++) {
    // Two to four words among the 60 most common, sometimes with a stop word between two of them.
    const length = 2 + Math.floor(next() * 3);
    const words = Array.from({ length }, () => word(Math.floor(next() * 60)));
    if (new Set(words).size < length) continue;
    const typed = [...words];
    if (next() < 0.3) typed.splice(1, 0, STOP[Math.floor(next() * STOP.length)]);
    const host = Math.floor(next() * count);
    if (planted.some((p) => p.pageId === `p${host}`)) continue;
    const sequence = ` ${analysed(typed)} `;
    // Held as a sequence by no page yet, and its words held apart by many.
    if (bodies.some((body) => ` ${analysed(body)} `.includes(sequence))) continue;
    const at = Math.floor(next() * bodies[host].length);
    bodies[host].splice(at, 0, ...typed);
    planted.push({ query: words.join(' '), pageId: `p${host}` });
  }
  const pages = bodies.map((body, i) => ({
    pageId: `p${i}`,
    title: titles[i].join(' '),
    sections: [{ id: '', title: '', body: body.join(' ') }],
  }));
  // Planting one phrase may have made another one's sequence: those go.
  const held = pages.map((page) => ` ${analysed([page.title])} | ${analysed([page.sections[0].body])} `);
  return {
    pages,
    phrases: planted.filter(
      ({ query }) => held.filter((text) => text.includes(` ${analysed([query])} `)).length === 1,
    ),
  };
}

/** The index of these pages, as a space's index in memory holds it. */
function indexOf(pages: IndexedPage[]) {
  let total = 0;
  const index = TermIndex.of(
    pages.map((page) => {
      const list = postings(page, 'en');
      const sectionIds = page.sections.map((section) => section.id);
      total += list[0]?.length ?? 0;
      return {
        pageId: page.pageId,
        length: list[0]?.length ?? 0,
        sectionIds,
        postings: packPostings(list, sectionIds),
        positions: packPositions(list),
      };
    }),
  );
  return { index, stats: { pages: pages.length, averageLength: total / pages.length } };
}

/** A query ranked as the space's search ranks it: each term's 100 best postings, and pages holding the phrase. */
function search(index: TermIndex, stats: { pages: number; averageLength: number }, query: string) {
  const wanted = terms(query, 'en');
  const { byTerm, holding } = candidatesFor(index, wanted, 100);
  return rank(wanted, byTerm, stats, holding);
}

describe('phrase queries over a generated corpus', () => {
  it('rank the page holding the words as a sequence first', () => {
    const { pages, phrases } = corpus(7, 400, 150);
    expect(phrases.length).toBeGreaterThan(100);
    const { index, stats } = indexOf(pages);
    const first = phrases.filter(({ query, pageId }) => search(index, stats, query)[0]?.pageId === pageId);
    const share = first.length / phrases.length;
    process.stdout.write(
      `phrase queries ranked first: ${first.length} of ${phrases.length} (${(share * 100).toFixed(1)}%)\n`,
    );
    expect(share).toBeGreaterThanOrEqual(0.95);
  });
});
