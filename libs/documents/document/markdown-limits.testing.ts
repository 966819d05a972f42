/** A large page as people write them: 1 MiB, thousands of headings, lists, links, code, quotes, tables. */
export function largeRealPage(bytes = 1024 * 1024, headings = 5000): string {
  const parts = ['---\ndescription: A large reference\n---\n\n# Reference\n\n'];
  let size = parts[0].length;
  for (let i = 0; size < bytes - 600; i++) {
    const section =
      i < headings
        ? `## Option ${i}\n\nSets **option ${i}** for *this* run; see [the guide](./guide.md#o${i}) or <https://example.com/${i}>.\n\n`
        : `Also, \`value_${i}\` is ~~deprecated~~ __since__ 2.${i} [^n${i % 50}].\n\n`;
    const extra =
      i % 10 === 0
        ? `- first ${i}\n- second\n  - nested\n    1. deeper\n\n> Note ${i}: keep **this** in mind.\n\n| a | b |\n| - | - |\n| ${i} | two |\n\n\`\`\`c\n/*************************************************************************/\nint x${i} = **p;\n\`\`\`\n\n`
        : '';
    parts.push(section + extra);
    size += section.length + extra.length;
  }
  for (let n = 0; n < 50; n++) parts.push(`[^n${n}]: Footnote ${n}.\n`);
  parts.push('\n* * *\n\n________________________________________________________________________________\n');
  return parts.join('');
}
