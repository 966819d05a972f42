import { invalid } from '@app/platform/domain/decider';
import type { Document } from './document';
import { markdownToDocument } from './from-markdown';
import type { Frontmatter } from './frontmatter';
import { type MarkdownLimits, markdownProblem } from './markdown-limits';
import { documentToMarkdown } from './to-markdown';

/** A conversion, as handed to a thread that runs it (`runConversion`). */
export type ConversionTask =
  | { kind: 'markdown-to-document'; markdown: string; limits: MarkdownLimits; andBack?: boolean }
  | { kind: 'document-to-markdown'; document: Document; limits: MarkdownLimits };

/**
 * What a conversion answers: Markdown, or a document with its frontmatter as JSON (the JSON of a
 * `MarkdownDocument`), which crosses threads as one string and is parsed anew for each use; asked
 * `andBack`, also that document's own Markdown (what reads answer for it).
 */
export type ConversionResult = { markdown: string } | { json: string; markdown?: string };

/**
 * Conversions of page bodies, run within a time and memory budget off the thread that serves requests
 * (the composition provides them on worker threads). A refusal is a DomainError (`invalid`) whose
 * message is the end of a sentence about the field (`nests 40 block quotes…`): the caller names it.
 */
export abstract class DocumentConversions {
  /** The JSON of the `MarkdownDocument` (document and frontmatter) that `markdown` makes. */
  abstract markdownToJson(markdown: string): Promise<string>;
  /**
   * `markdownToJson` with the Markdown of the document made, rendered in the same task: for bodies kept
   * in both forms (comments), one trip to a thread instead of two.
   */
  abstract markdownToJsonAndBack(markdown: string): Promise<{ json: string; markdown: string }>;
  abstract documentToMarkdown(document: Document): Promise<string>;
}

/** The document and frontmatter of a conversion's JSON (`DocumentConversions.markdownToJson`). */
export const parseConverted = (json: string): { document: Document; frontmatter: Frontmatter } =>
  JSON.parse(json);

/** Runs a conversion where it is handed to (a worker thread): checks, converts, checks what it made. */
export function runConversion(task: ConversionTask): ConversionResult {
  try {
    if (task.kind === 'document-to-markdown') {
      documentShape(task.document, task.limits);
      return { markdown: documentToMarkdown(task.document) };
    }
    const problem = markdownProblem(task.markdown, task.limits);
    if (problem) throw invalid(problem);
    const converted = markdownToDocument(task.markdown);
    documentShape(converted.document, task.limits);
    const json = JSON.stringify(converted);
    return task.andBack ? { json, markdown: documentToMarkdown(converted.document) } : { json };
  } catch (error) {
    if (error instanceof RangeError && /call stack/i.test(error.message))
      throw invalid('is nested too deeply to convert');
    throw error;
  }
}

/** A document of at most `maxNodes` nodes, nested at most 64 levels (as `checkDocument` wants). */
function documentShape(document: Document, limits: MarkdownLimits): void {
  let nodes = 0;
  const stack: [unknown, number][] = [[document, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (typeof node !== 'object' || node === null) continue;
    nodes++;
    if (depth > 64) throw invalid('makes a document nested deeper than 64 levels');
    const { nodes: children, leaves, fragments } = node as Record<string, unknown>;
    if (Array.isArray(leaves)) nodes += leaves.length;
    if (Array.isArray(children)) for (const child of children) stack.push([child, depth + 1]);
    if (Array.isArray(fragments)) {
      for (const fragment of fragments) {
        nodes++;
        const inner = (fragment as { nodes?: unknown } | null)?.nodes;
        if (Array.isArray(inner)) for (const child of inner) stack.push([child, depth + 1]);
      }
    }
    if (nodes > limits.maxNodes) throw invalid(`makes a document of more than ${limits.maxNodes} nodes`);
  }
}
