import { terms } from './analysis';
import { analyse, highlights, snippet, snippetOf } from './snippet';

const query = (text: string) => terms(text, 'en');

describe('highlights', () => {
  it('finds the words that are query terms, stemmed and folded as the query is', () => {
    const text = 'Running the Café server: it runs.';
    const spans = highlights(text, query('run cafe'), 'en');
    expect(spans.map(({ start, end }) => text.slice(start, end))).toEqual(['Running', 'Café', 'runs']);
  });

  it('merges the overlapping pairs of CJK text', () => {
    const text = '用户指南和说明';
    const spans = highlights(text, terms('用户指南', 'zh'), 'zh');
    expect(spans.map(({ start, end }) => text.slice(start, end))).toEqual(['用户指南']);
  });
});

describe('snippet', () => {
  const long = `${'Lorem ipsum dolor sit amet. '.repeat(10)}Set the webhook secret here. ${'Consectetur adipiscing elit. '.repeat(10)}`;

  it('is the whole text when short enough, whitespace collapsed', () => {
    expect(snippet('Create a\ntoken  now.', query('token'), 'en')).toBe('Create a token now.');
  });

  it('is an excerpt around the hits, cut at spaces, with ellipses where text was cut', () => {
    const excerpt = snippet(long, query('webhook'), 'en', 80);
    expect(excerpt).toMatch(/^….*Set the webhook secret here\..*…$/);
    const inner = excerpt.slice(1, -1);
    expect(inner.length).toBeLessThanOrEqual(80);
    // Whole words: the excerpt starts and ends at spaces of the text.
    const at = long.indexOf(inner);
    expect(long[at - 1]).toBe(' ');
    expect(long[at + inner.length]).toBe(' ');
  });

  it('picks the passage with the most distinct query terms', () => {
    const text = `Token first. ${'Filler words here. '.repeat(12)}A token limit applies. ${'More filler. '.repeat(12)}`;
    expect(snippet(text, query('token limit'), 'en', 60)).toContain('A token limit applies.');
  });

  it('reads on to the passage holding as many terms as the text has, and stops there', () => {
    const text = `Token first. ${'Filler words here. '.repeat(12)}A token limit applies. ${'More filler. '.repeat(12)}`;
    // Told the text holds one of the two terms, the first passage with one will do.
    expect(snippet(text, query('token limit'), 'en', 60, 1)).toMatch(/^Token first\./);
    expect(snippet(text, query('token limit'), 'en', 60, 2)).toContain('A token limit applies.');
  });

  it('is the start of the text when no query term is in it', () => {
    expect(snippet(long, query('absent'), 'en', 30)).toBe('Lorem ipsum dolor sit amet.…');
  });

  it('never splits a character outside the BMP', () => {
    const text = `${'😀'.repeat(100)} hit`;
    const excerpt = snippet(text, query('hit'), 'en', 20);
    expect(excerpt).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
    expect(excerpt).toContain('hit');
  });

  it('is the same from a text analysed once, for any query', () => {
    const texts = [
      long,
      `Token first. ${'Filler words here. '.repeat(12)}A token limit applies. ${'More filler. '.repeat(12)}`,
      'Running the Café server: it runs. 用户指南和说明 ½ off',
      `${'😀'.repeat(100)} hit`,
    ];
    const queries = ['webhook', 'token limit', 'run cafe', '用户指南', 'hit', 'absent', '1 2'];
    for (const text of texts) {
      const analysed = analyse(text, 'en');
      for (const q of queries) {
        for (const holding of [undefined, 1, 2]) {
          expect(snippetOf(analysed, query(q), 60, holding)).toBe(snippet(text, query(q), 'en', 60, holding));
        }
      }
    }
  });
});
