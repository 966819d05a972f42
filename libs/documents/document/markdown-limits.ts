import type { MarkdownLimits } from '@app/platform/domain/markdown-limits';
import { NESTING_TAGS } from './dialect/liquid-tags';

export { DEFAULT_MARKDOWN_LIMITS, type MarkdownLimits } from '@app/platform/domain/markdown-limits';

const SPACE = 0x20;
const TAB = 0x09;
const BACKSLASH = 0x5c;
const BACKTICK = 0x60;

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isBlank = (c: number) => c === SPACE || c === TAB || Number.isNaN(c);

/**
 * Whether a line (from `i`) opens (1) or closes (-1) one of GitBook's block tags that nest, or neither
 * (0). Open tags of blocks that may stand alone (an embed) do not count; an unpaired tag counts as nested.
 */
function blockTag(markdown: string, i: number, lineEnd: number): number {
  if (markdown.charCodeAt(i) !== 0x7b /* { */ || markdown.charCodeAt(i + 1) !== 0x25 /* % */) return 0;
  let j = i + 2;
  while (j < lineEnd && isBlank(markdown.charCodeAt(j))) j++;
  const start = j;
  // Names are short: look at 24 characters at most.
  while (j < lineEnd && j - start < 24 && /[a-z-]/.test(markdown[j])) j++;
  const name = markdown.slice(start, j);
  if (NESTING_TAGS.has(name)) return 1;
  return name.startsWith('end') && NESTING_TAGS.has(name.slice(3)) ? -1 : 0;
}

/**
 * The first way `markdown` exceeds `limits`, as the end of a message (`nests 40 block quotes or lists,
 * at most 32`), or undefined. Linear in the length, allocating nothing per character; approximate where
 * Markdown is subtle (it counts what looks like a container, a heading, a link), which errs on counting
 * more of some things in odd text, never on letting a costly shape through.
 */
export function markdownProblem(markdown: string, limits: MarkdownLimits): string | undefined {
  let headings = 0;
  let links = 0;
  let containerLines = 0;
  let footnotes = 0;
  // GitBook's expandables open (`<details>` lines not yet closed), which nest like containers.
  let details = 0;
  // Per paragraph (up to a blank line).
  let brackets = 0;
  let delimiters = 0;
  let codeTicks = 0;
  // GitBook's block tags open (`{% hint %}` … `{% endhint %}`): they nest as quotes do.
  let tagDepth = 0;
  // A fenced code block: its fence character and length, 0 outside.
  let fenceChar = 0;
  let fenceLength = 0;
  const end = markdown.length;
  let start = 0;
  while (start <= end) {
    let lineEnd = markdown.indexOf('\n', start);
    if (lineEnd < 0) lineEnd = end;
    // The containers the line opens or continues: indentation, `>` and list markers.
    let i = start;
    let depth = 0;
    let indent = 0;
    let markers = 0;
    let onlyChar = -1;
    for (;;) {
      const c = markdown.charCodeAt(i);
      if (c === SPACE || c === TAB) {
        indent += c === TAB ? 4 : 1;
        i++;
      } else if (c === 0x3e /* > */) {
        depth++;
        i++;
      } else if (
        (c === 0x2d || c === 0x2a || c === 0x2b) &&
        isBlank(markdown.charCodeAt(i + 1)) &&
        i < lineEnd
      ) {
        // A list item inside lists indented under it: one level per two columns of indentation.
        if (markers === 0) depth += Math.floor(indent / 2);
        markers++;
        onlyChar = onlyChar === -1 || onlyChar === c ? c : 0;
        depth++;
        i++;
      } else if (isDigit(c)) {
        let j = i;
        while (j < lineEnd && j - i < 9 && isDigit(markdown.charCodeAt(j))) j++;
        const after = markdown.charCodeAt(j);
        if ((after !== 0x2e && after !== 0x29) || !isBlank(markdown.charCodeAt(j + 1)) || j >= lineEnd) break;
        if (markers === 0) depth += Math.floor(indent / 2);
        markers++;
        onlyChar = 0;
        depth++;
        i = j + 1;
      } else break;
      if (i >= lineEnd) break;
    }
    const blankRest = i >= lineEnd;
    // `* * *` or `- - -` alone on a line is a thematic break, not lists.
    const thematic = blankRest && markers >= 3 && onlyChar > 0;
    if (fenceChar === 0 && !thematic) {
      if (markdown.charCodeAt(i) === 0x3c /* < */) {
        const html = markdown.slice(i, i + 10).toLowerCase();
        if (/^<details[\s>]/.test(html) || html === '<details') details++;
        else if (html.startsWith('</details>') && details > 0) details--;
      }
      const tag = blockTag(markdown, i, lineEnd);
      if (tag !== 0) tagDepth = Math.max(0, tagDepth + tag);
      const nesting = depth + details + tagDepth;
      if (nesting > limits.maxNesting) {
        const kinds = ['block quotes', 'lists'];
        if (tagDepth > 0) kinds.push('block tags');
        if (details > 0) kinds.push('expandables');
        return `nests ${nesting} ${kinds.slice(0, -1).join(', ')} or ${kinds.at(-1)}, at most ${limits.maxNesting}`;
      }
      if (depth > 0 && ++containerLines > limits.maxContainerLines)
        return `has more than ${limits.maxContainerLines} lines in block quotes or list items`;
    }
    const c = markdown.charCodeAt(i);
    // Fences open and close code blocks, where nothing below applies.
    if (
      (c === BACKTICK || c === 0x7e) &&
      markdown.charCodeAt(i + 1) === c &&
      markdown.charCodeAt(i + 2) === c
    ) {
      let j = i;
      while (j < lineEnd && markdown.charCodeAt(j) === c) j++;
      if (fenceChar === 0) {
        fenceChar = c;
        fenceLength = j - i;
        start = lineEnd + 1;
        continue;
      }
      if (c === fenceChar && j - i >= fenceLength) {
        fenceChar = 0;
        start = lineEnd + 1;
        continue;
      }
    }
    if (fenceChar !== 0) {
      start = lineEnd + 1;
      continue;
    }
    if (blankRest) {
      brackets = 0;
      delimiters = 0;
      codeTicks = 0;
      start = lineEnd + 1;
      continue;
    }
    if (c === 0x23 /* # */) {
      let j = i;
      while (j < lineEnd && markdown.charCodeAt(j) === 0x23) j++;
      if (j - i <= 6 && isBlank(markdown.charCodeAt(j))) {
        if (++headings > limits.maxHeadings) return `has more than ${limits.maxHeadings} headings`;
      }
    }
    const problem = scanInline();
    if (problem) return problem;
    start = lineEnd + 1;

    /** Delimiters, brackets, links and footnotes of the rest of the line, outside code spans. */
    function scanInline(): string | undefined {
      let j = i;
      while (j < lineEnd) {
        const ch = markdown.charCodeAt(j);
        if (ch === BACKSLASH) {
          j += 2;
          continue;
        }
        if (ch === BACKTICK) {
          let k = j;
          while (k < lineEnd && markdown.charCodeAt(k) === BACKTICK) k++;
          if (codeTicks === 0) codeTicks = k - j;
          else if (codeTicks === k - j) codeTicks = 0;
          j = k;
          continue;
        }
        if (codeTicks !== 0) {
          j++;
          continue;
        }
        // `$` too: a run of dollars opens math, tried to the end of the paragraph for each length.
        if (ch === 0x2a || ch === 0x5f || ch === 0x7e || ch === 0x24) {
          let k = j;
          while (k < lineEnd && markdown.charCodeAt(k) === ch) k++;
          const run = k - j;
          // A line of one character alone (`______`) is a thematic break or a heading's underline.
          const alone = j === i && markdown.slice(k, lineEnd).trim() === '';
          if (!alone) {
            if (run > limits.maxDelimiterRun)
              return `has a run of ${run} "${String.fromCharCode(ch)}", at most ${limits.maxDelimiterRun}`;
            delimiters += run;
            if (delimiters > limits.maxDelimiters)
              return `has more than ${limits.maxDelimiters} emphasis delimiters in one paragraph`;
          }
          j = k;
          continue;
        }
        if (ch === 0x5b /* [ */) {
          if (++brackets > limits.maxNesting) return `nests more than ${limits.maxNesting} link brackets`;
          if (markdown.charCodeAt(j + 1) === 0x5e /* ^ */ && ++footnotes > limits.maxFootnotes)
            return `has more than ${limits.maxFootnotes} footnotes`;
        } else if (ch === 0x5d /* ] */) {
          if (brackets > 0) brackets--;
          const next = markdown.charCodeAt(j + 1);
          if ((next === 0x28 || next === 0x5b || next === 0x3a) && ++links > limits.maxLinks)
            return `has more than ${limits.maxLinks} links`;
        } else if (ch === 0x3c /* < */ && markdown.startsWith('http', j + 1)) {
          if (++links > limits.maxLinks) return `has more than ${limits.maxLinks} links`;
        }
        j++;
      }
      return undefined;
    }
  }
  return undefined;
}
