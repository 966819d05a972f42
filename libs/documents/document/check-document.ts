import { invalid } from '@app/platform/domain/decider';
import type { Document } from './document';

/** Deeper than any document a person writes; a bound on what a request can make a reader recurse into. */
const MAX_DEPTH = 64;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A JSON document as given over the API, checked for the structure every reader of documents relies on
 * (GitBook's `JSONDocument`: blocks and inlines with a type, nodes and fragments; texts of leaves with
 * marks), so that one stored never breaks a read. The first problem is a 400 naming where it is. A leaf
 * given without `marks` gets an empty list, which GitBook's schema requires of what is answered.
 */
export function checkDocument(value: unknown, path: string): Document {
  if (!isRecord(value) || value.object !== 'document' || !isRecord(value.data) || !Array.isArray(value.nodes))
    throw invalid(`${path}: must be a document: {object: "document", data: {}, nodes: [...]}`);
  for (const [i, node] of value.nodes.entries()) checkNode(node, `${path}.nodes[${i}]`, 1);
  return value as unknown as Document;
}

function checkNode(node: unknown, path: string, depth: number): void {
  if (depth > MAX_DEPTH) throw invalid(`${path}: is nested deeper than ${MAX_DEPTH} levels`);
  if (!isRecord(node)) throw invalid(`${path}: must be an object`);
  if (node.object === 'text') {
    checkLeaves(node.leaves, `${path}.leaves`);
    return;
  }
  if (node.object !== 'block' && node.object !== 'inline')
    throw invalid(`${path}.object: must be block, inline or text`);
  if (typeof node.type !== 'string' || node.type === '') throw invalid(`${path}.type: must be a string`);
  if (node.key !== undefined && typeof node.key !== 'string') throw invalid(`${path}.key: must be a string`);
  if (node.data !== undefined && !isRecord(node.data)) throw invalid(`${path}.data: must be an object`);
  if (node.nodes !== undefined) {
    if (!Array.isArray(node.nodes)) throw invalid(`${path}.nodes: must be a list`);
    for (const [i, child] of node.nodes.entries()) checkNode(child, `${path}.nodes[${i}]`, depth + 1);
  }
  if (node.fragments !== undefined) {
    if (!Array.isArray(node.fragments)) throw invalid(`${path}.fragments: must be a list`);
    node.fragments.forEach((fragment, i) => {
      const at = `${path}.fragments[${i}]`;
      if (!isRecord(fragment) || fragment.object !== 'fragment' || !Array.isArray(fragment.nodes))
        throw invalid(`${at}: must be {object: "fragment", nodes: [...]}`);
      for (const [j, child] of fragment.nodes.entries()) checkNode(child, `${at}.nodes[${j}]`, depth + 1);
    });
  }
}

function checkLeaves(leaves: unknown, path: string): void {
  if (!Array.isArray(leaves)) throw invalid(`${path}: must be a list`);
  leaves.forEach((leaf, i) => {
    const at = `${path}[${i}]`;
    if (!isRecord(leaf) || leaf.object !== 'leaf' || typeof leaf.text !== 'string')
      throw invalid(`${at}: must be {object: "leaf", text: string, marks: [...]}`);
    if (leaf.marks === undefined) leaf.marks = [];
    else {
      if (!Array.isArray(leaf.marks)) throw invalid(`${at}.marks: must be a list`);
      leaf.marks.forEach((mark, j) => {
        if (!isRecord(mark) || mark.object !== 'mark' || typeof mark.type !== 'string')
          throw invalid(`${at}.marks[${j}]: must be {object: "mark", type: string}`);
      });
    }
  });
}
