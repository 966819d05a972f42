/**
 * Markdown whose conversion grows far faster than its size, in the shapes and sizes an adversarial probe
 * found (each froze the serving thread for tens of seconds to minutes, took gigabytes, or overflowed the
 * stack): a request may carry any of them, and must be refused quickly with a 400 naming the field.
 */
export const HOSTILE_MARKDOWN: Record<string, string> = {
  'an emphasis run': `${'*'.repeat(50_000)}x${'*'.repeat(50_000)}`,
  'nested links': `${'['.repeat(20_000)}a${'](b)'.repeat(20_000)}`,
  'a list of 100,000 items': '- item\n'.repeat(100_000),
  '100,000 headings': '# h\n'.repeat(100_000),
  '60,000 links': '[a](b)\n'.repeat(60_000),
  '50,000 footnote references': `${'[^a] '.repeat(50_000)}\n\n[^a]: A note.\n`,
  '10,000 nested block quotes': `${'>'.repeat(10_000)} x`,
  // Each level indented two columns more: 700 levels are half a megabyte (the body limit is one).
  '700 nested lists': Array.from({ length: 700 }, (_, i) => `${'  '.repeat(i)}- item`).join('\n'),
  '6,000 nested list markers': `${'* '.repeat(6000)}x`,
  'a chain of footnotes': `[^0]\n\n${Array.from({ length: 2000 }, (_, i) => `[^${i}]: [^${i + 1}]`).join('\n\n')}\n`,
  'footnotes citing each other twice': `[^0]\n\n${Array.from({ length: 40 }, (_, i) => `[^${i}]: [^${i + 1}] [^${i + 1}]`).join('\n\n')}\n`,
};
