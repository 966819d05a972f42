/*
 * Deterministic generated prose for the content benchmarks: words of a 20,000-word vocabulary drawn
 * with a Zipf-like law (a few words in most pages, most words in few), so that search sees postings
 * lists of every length, as in real documentation.
 */
const SYLLABLES = ['ka', 'lo', 'mi', 'ren', 'tas', 'vo', 'shi', 'dun', 'pel', 'mar'];
const VOCABULARY = 20_000;

/** The word of a rank: its digits in base 10 read as syllables, never fewer than two. */
function word(rank) {
  let n = rank + SYLLABLES.length;
  let out = '';
  for (; n > 0; n = Math.floor(n / SYLLABLES.length)) out = SYLLABLES[n % SYLLABLES.length] + out;
  return out;
}

/** mulberry32: a small seeded generator, so that every run writes the same pages. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A rank with probability about proportional to 1/rank. */
const zipf = (next) => Math.floor(Math.exp(next() * Math.log(VOCABULARY + 1))) - 1;

/** `count` words as paragraphs of about 50, each sentence capitalized and ended. */
function paragraphs(seed, count) {
  const next = random(seed);
  const out = [];
  let sentence = [];
  let paragraph = [];
  for (let i = 0; i < count; i++) {
    sentence.push(word(zipf(next)));
    if (sentence.length >= 8 + Math.floor(next() * 10) || i === count - 1) {
      const text = sentence.join(' ');
      paragraph.push(`${text[0].toUpperCase()}${text.slice(1)}.`);
      sentence = [];
      if (paragraph.join(' ').length > 350 || i === count - 1) {
        out.push(paragraph.join(' '));
        paragraph = [];
      }
    }
  }
  return out.join('\n\n');
}

/** A page of about `bytes` of Markdown: a heading every few paragraphs. */
function pageMarkdown(seed, bytes) {
  const next = random(seed);
  const words = Math.round(bytes / 7.5);
  const body = paragraphs(seed, words).split('\n\n');
  return body
    .map((p, i) => (i % 3 === 0 ? `## ${word(zipf(next))} ${word(zipf(next))}\n\n${p}` : p))
    .join('\n\n')
    .concat('\n');
}

/** `count` distinct search queries of one to three words, ranks spread evenly on a log scale from 10 to 5,000. */
function queries(seed, count) {
  const next = random(seed);
  const rank = () => Math.floor(Math.exp(Math.log(10) + next() * (Math.log(5000) - Math.log(10))));
  const out = new Set();
  while (out.size < count) {
    out.add(Array.from({ length: 1 + Math.floor(next() * 3) }, () => word(rank())).join(' '));
  }
  return [...out];
}

module.exports = { word, random, paragraphs, pageMarkdown, queries };
