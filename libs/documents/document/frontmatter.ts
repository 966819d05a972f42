/**
 * YAML frontmatter: the page fields a Markdown write carries before its content. It is data, not
 * content: it round-trips as an object (the YAML text is rewritten, comments and quoting are not kept).
 */
import { invalid } from '@app/platform/domain/decider';
import type { Yaml } from 'mdast';
import { parse, stringify } from 'yaml';

export type Frontmatter = Record<string, unknown>;

/** The object a frontmatter block holds; an empty block is an empty object. */
export function readFrontmatter(node: Yaml | undefined): Frontmatter {
  if (!node || node.value.trim() === '') return {};
  let value: unknown;
  try {
    value = parse(node.value);
  } catch (error) {
    throw invalid(`frontmatter is not valid YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  if (value === null || value === undefined) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw invalid('frontmatter must be a YAML mapping of field names to values');
  }
  return value as Frontmatter;
}

/** The frontmatter block for an object, or none for an empty one. */
export function writeFrontmatter(frontmatter: Frontmatter): Yaml | undefined {
  if (Object.keys(frontmatter).length === 0) return undefined;
  // lineWidth 0: long values stay on one line rather than being folded.
  return { type: 'yaml', value: stringify(frontmatter, { lineWidth: 0 }).trimEnd() };
}
