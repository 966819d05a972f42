import { DEFAULT_MARKDOWN_LIMITS as LIMITS, markdownProblem } from './markdown-limits';
import { largeRealPage } from './markdown-limits.testing';

describe('markdownProblem', () => {
  it('passes a large real page', () => {
    const page = largeRealPage();
    expect(Buffer.byteLength(page)).toBeGreaterThan(1000_000);
    expect(markdownProblem(page, LIMITS)).toBeUndefined();
  });

  it.each([
    ['an emphasis run', `${'*'.repeat(6000)}x${'*'.repeat(6000)}`, /run of 6000 "\*", at most 64/],
    ['nested links', `${'['.repeat(5000)}a${'](b)'.repeat(5000)}`, /nests more than 32 link brackets/],
    ['nested block quotes', '>'.repeat(10_000), /nests 10000 block quotes or lists/],
    ['nested list markers', `${'* '.repeat(6000)}x`, /nests 6000 block quotes or lists/],
    [
      'indented nested lists',
      Array.from({ length: 1500 }, (_, i) => `${'  '.repeat(i)}- item`).join('\n'),
      /nests \d+ block quotes or lists, at most 32/,
    ],
    [
      'a list of 100,000 items',
      '- a\n'.repeat(100_000),
      /more than 30000 lines in block quotes or list items/,
    ],
    ['100,000 headings', '# h\n'.repeat(100_000), /more than 20000 headings/],
    ['60,000 links', '[a](b) '.repeat(60_000), /more than 30000 links/],
    ['50,000 footnote references', '[^a] '.repeat(50_000), /more than 5000 footnotes/],
    [
      'alternating delimiters',
      `${'*_'.repeat(6000)}x${'_*'.repeat(6000)}`,
      /more than 10000 emphasis delimiters/,
    ],
  ])('refuses %s', (_, markdown, problem) => {
    const started = Date.now();
    expect(markdownProblem(markdown, LIMITS)).toMatch(problem);
    // A pass over the text, however hostile (generous: a loaded machine).
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('skips code: fences, code spans', () => {
    const code = `\`\`\`\n${'>'.repeat(100)}\n${'*'.repeat(200)}\n\`\`\`\n\nSee \`${'*'.repeat(200)}\`.\n`;
    expect(markdownProblem(code, LIMITS)).toBeUndefined();
  });
});
