/**
 * Every reference a document makes (links, images, files, pages, embeds, mentions, table cells), for
 * link extraction. Found by shape rather than by node type, so GitBook's other blocks are covered too.
 */
import type { ContentRef, Document } from './document';

export interface DocumentLink {
  ref: ContentRef;
  /** The type of the node that makes the reference (`link`, `inline-image`, `image`, `embed`, `table`, …). */
  node: string;
  /** The key of that node, when it has one. */
  key?: string;
}

const REF_FIELDS = ['ref', 'refDark'] as const;

export function documentLinks(document: Document): DocumentLink[] {
  const links: DocumentLink[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      value.forEach(visit);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    const node = value as { type?: string; key?: string; data?: Record<string, unknown> };
    const at = (ref: ContentRef) => links.push({ ref, node: node.type ?? 'unknown', key: node.key });
    const data = node.data ?? {};
    for (const field of REF_FIELDS) if (isRef(data[field])) at(data[field]);
    if (node.type === 'embed' && typeof data.url === 'string') at({ kind: 'url', url: data.url });
    if (node.type === 'table') tableRefs(data.records).forEach(at);
    for (const field of ['nodes', 'fragments'] as const) visit((node as Record<string, unknown>)[field]);
  };
  visit(document.nodes);
  return links;
}

/** References held as cell values (GitBook's content-ref, files and image columns). */
function tableRefs(records: unknown): ContentRef[] {
  if (records === null || typeof records !== 'object') return [];
  return Object.values(records as Record<string, { values?: Record<string, unknown> }>).flatMap((record) =>
    Object.values(record.values ?? {}).flatMap((value) => {
      if (isRef(value)) return [value];
      if (value !== null && typeof value === 'object' && 'ref' in value && isRef(value.ref))
        return [value.ref];
      return [];
    }),
  );
}

const isRef = (value: unknown): value is ContentRef =>
  value !== null && typeof value === 'object' && typeof (value as { kind?: unknown }).kind === 'string';
