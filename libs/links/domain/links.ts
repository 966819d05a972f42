/**
 * The links of a revision and their status, for GitBook's link listings (`listSpaceLinks`, the page links
 * operations) and file backlinks. Pure: it reads content objects from the store it is given, nothing else.
 *
 * Statuses follow GitBook's `ContentReferenceStatus` and the specification, which agree:
 * - `broken`: the target does not exist in the revision (a page, anchor, file or reusable content that is
 *   not there, or a URL that points nowhere);
 * - `in-app`: a URL pointing to an internal location of the app (a link to the editor rather than to
 *   content: it works only for members, so GitBook flags it);
 * - `ok`: no problem detected, which is every other link, existing in-revision targets included.
 */
import type { ContentRef, Document } from '@app/documents/document/document';
import { documentLinks } from '@app/documents/document/document-links';
import { documentHeadings } from '@app/documents/document/document-text';
import { readContent } from '@app/documents/tree/content';
import { canonicalJson, type Hash, type JsonObject } from '@app/documents/tree/hash';
import { mapScan } from '@app/documents/tree/merkle-map';
import type { ObjectStore } from '@app/documents/tree/objects';
import {
  getDocument,
  listPages,
  listReusableContents,
  type PageNode,
  type PageView,
} from '@app/documents/tree/page-tree';

export type LinkStatus = 'ok' | 'broken' | 'in-app';
export const LINK_STATUSES: readonly LinkStatus[] = ['ok', 'broken', 'in-app'];

/** GitBook's `ContentReferenceRelation`. */
export type LinkRelation = 'reference' | 'dependsOn';

/**
 * Where a link is, by id: GitBook's `ContentLocationPage` or `ContentLocationReusableContent` once the
 * caller adds the organization, space and object.
 */
export type LinkLocation =
  | { kind: 'page'; pageId: string }
  | { kind: 'reusable-content'; reusableContentId: string };

export interface RevisionLink {
  location: LinkLocation;
  /**
   * The innermost block holding the reference, for GitBook's `internalLocation: {type: 'node', node}`.
   * Absent for references outside the body (a link page's target, a cover) and for nodes without keys.
   */
  blockKey?: string;
  /** The node making the reference (`link`, `image`, `file`, `embed`, …), `link-page` or `cover`. */
  node: string;
  /** The reference as stored. */
  target: ContentRef;
  /**
   * The target it designates: `space` dropped when it is this space, an anchor's page filled in, a
   * `#anchor` URL read as that anchor of the page. Equal targets have equal `key`s.
   */
  resolved: ContentRef;
  key: string;
  status: LinkStatus;
  relation: LinkRelation;
}

export interface LinkOptions {
  /** This space's id: a reference naming it is judged against the revision, like one naming no space. */
  spaceId?: string;
  /** Base URLs of the app (the caller's `urls.app('')`): URLs under them are `in-app`. */
  appUrls?: readonly string[];
}

/** Nodes that show their target's content in place, rather than pointing at it: GitBook's `dependsOn`. */
const DEPENDS_ON = new Set([
  'image',
  'inline-image',
  'file',
  'embed',
  'drawing',
  'reusable-content',
  'openapi',
  'swagger',
  'openapi-operation',
  'openapi-schemas',
  'openapi-webhook',
  'cover',
]);

interface Occurrence {
  location: LinkLocation;
  blockKey?: string;
  node: string;
  target: ContentRef;
}

interface Revision {
  pages: Map<string, PageView>;
  files: Set<string>;
  reusables: Set<string>;
  documents: Map<string, Document>;
  occurrences: Occurrence[];
}

/** Every link of the revision with its status, in page order (then reusable contents), then document order. */
export async function revisionLinks(
  store: ObjectStore,
  root: Hash,
  options: LinkOptions = {},
): Promise<RevisionLink[]> {
  const revision = await readRevision(store, root);
  const anchors = anchorsOf(revision);
  return revision.occurrences.map((o) => judge(o, revision, anchors, options));
}

export interface Backlink {
  location: LinkLocation;
  /** The first block of that location that references the file. */
  blockKey?: string;
  node: string;
}

/**
 * The pages and reusable contents referencing a file (images, file blocks, links, covers), once each, in
 * revision order. A file that does not exist has none: telling it apart is the caller's `getFile`.
 */
export async function fileBacklinks(
  store: ObjectStore,
  root: Hash,
  fileId: string,
  options: Pick<LinkOptions, 'spaceId'> = {},
): Promise<Backlink[]> {
  const { occurrences } = await readRevision(store, root);
  const seen = new Set<string>();
  const out: Backlink[] = [];
  for (const { location, blockKey, node, target } of occurrences) {
    if (target.kind !== 'file' || target.file !== fileId || isElsewhere(target, options.spaceId)) continue;
    const at = canonicalJson(location);
    if (seen.has(at)) continue;
    seen.add(at);
    out.push(blockKey === undefined ? { location, node } : { location, blockKey, node });
  }
  return out;
}

async function readRevision(store: ObjectStore, root: Hash): Promise<Revision> {
  const content = await readContent(store, root);
  const [tree, files, reusables] = await Promise.all([
    listPages(store, root),
    mapScan(store, content.files),
    listReusableContents(store, root),
  ]);
  const order = flatten(tree);
  const documents = new Map<string, Document>();
  const pageOccurrences = await Promise.all(
    order.map(async (page) => {
      const location: LinkLocation = { kind: 'page', pageId: page.id };
      const own: Occurrence[] = [];
      if (page.cover)
        own.push(...coverRefs(page.cover).map((target) => ({ location, node: 'cover', target })));
      if (page.type === 'link' && isRef(page.target))
        own.push({ location, node: 'link-page', target: page.target });
      if (page.documentId === undefined) return own;
      const document = (await getDocument(store, page.documentId)) as unknown as Document;
      documents.set(page.id, document);
      return [...own, ...bodyOccurrences(document, location)];
    }),
  );
  const reusableOccurrences = await Promise.all(
    reusables.map(async ({ id, documentId }) => {
      if (documentId === undefined) return [];
      const document = (await getDocument(store, documentId)) as unknown as Document;
      return bodyOccurrences(document, { kind: 'reusable-content', reusableContentId: id });
    }),
  );
  return {
    pages: new Map(order.map((page) => [page.id, page])),
    files: new Set(files.map(([id]) => id)),
    reusables: new Set(reusables.map(({ id }) => id)),
    documents,
    occurrences: [...pageOccurrences.flat(), ...reusableOccurrences.flat()],
  };
}

/** The tree in reading order: a page, then its children. */
const flatten = (nodes: PageNode[]): PageView[] =>
  nodes.flatMap(({ pages, ...page }) => [page, ...flatten(pages)]);

const coverRefs = (cover: JsonObject): ContentRef[] =>
  ([cover.ref, cover.refDark] as unknown[]).filter(isRef);

function bodyOccurrences(document: Document, location: LinkLocation): Occurrence[] {
  const blocks = enclosingBlocks(document);
  return documentLinks(document).map(({ ref, node, key }) => {
    const blockKey = key === undefined ? undefined : blocks.get(key);
    return blockKey === undefined
      ? { location, node, target: ref }
      : { location, blockKey, node, target: ref };
  });
}

/** Each node key → the key of the innermost block holding it (a block holds itself). */
function enclosingBlocks(document: Document): Map<string, string> {
  const out = new Map<string, string>();
  const visit = (value: unknown, block: string | undefined): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item, block);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    const node = value as { object?: string; key?: unknown; nodes?: unknown; fragments?: unknown };
    const key = typeof node.key === 'string' ? node.key : undefined;
    const here = node.object === 'block' && key !== undefined ? key : block;
    if (key !== undefined && here !== undefined && !out.has(key)) out.set(key, here);
    visit(node.nodes, here);
    visit(node.fragments, here);
  };
  visit(document.nodes, undefined);
  return out;
}

type Anchors = (pageId: string) => ReadonlySet<string>;

/** A page's anchors (its headings', and any block's `data.id`), found once per page. */
function anchorsOf(revision: Revision): Anchors {
  const cache = new Map<string, ReadonlySet<string>>();
  return (pageId) => {
    let anchors = cache.get(pageId);
    if (!anchors) {
      const document = revision.documents.get(pageId);
      anchors = document ? documentAnchors(document) : new Set<string>();
      cache.set(pageId, anchors);
    }
    return anchors;
  };
}

function documentAnchors(document: Document): Set<string> {
  const anchors = new Set(documentHeadings(document).map((heading) => heading.anchor));
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      value.forEach(visit);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    const node = value as { object?: string; data?: { id?: unknown }; nodes?: unknown; fragments?: unknown };
    if (node.object === 'block' && typeof node.data?.id === 'string') anchors.add(node.data.id);
    visit(node.nodes);
    visit(node.fragments);
  };
  visit(document.nodes);
  return anchors;
}

function judge(
  occurrence: Occurrence,
  revision: Revision,
  anchors: Anchors,
  options: LinkOptions,
): RevisionLink {
  const resolved = resolve(occurrence.target, occurrence.location, options.spaceId);
  return {
    ...occurrence,
    resolved,
    key: canonicalJson(resolved),
    status: statusOf(resolved, revision, anchors, options),
    relation: DEPENDS_ON.has(occurrence.node) ? 'dependsOn' : 'reference',
  };
}

function resolve(ref: ContentRef, location: LinkLocation, spaceId: string | undefined): ContentRef {
  // A space reference names its target by `space`: only the others' `space` says where the target is.
  const here = ref.kind !== 'space' && 'space' in ref && ref.space !== undefined && ref.space === spaceId;
  const local = here ? withoutSpace(ref) : ref;
  const page = location.kind === 'page' ? location.pageId : undefined;
  if (local.kind === 'anchor' && local.page === undefined && local.space === undefined && page !== undefined)
    return { ...local, page };
  if (local.kind === 'url' && local.url.startsWith('#') && page !== undefined)
    return { kind: 'anchor', page, anchor: decode(local.url.slice(1)) };
  return local;
}

const withoutSpace = (ref: ContentRef): ContentRef => {
  const { space: _, ...rest } = ref as ContentRef & { space?: string };
  return rest as ContentRef;
};

function statusOf(ref: ContentRef, revision: Revision, anchors: Anchors, options: LinkOptions): LinkStatus {
  // Another space's content is not at hand: not judged. (`resolve` dropped this space's id.)
  if (isElsewhere(ref, undefined)) return 'ok';
  const exists = (found: boolean): LinkStatus => (found ? 'ok' : 'broken');
  switch (ref.kind) {
    case 'url':
      // A `#anchor` left as a URL is in a reusable content, whose page is wherever it is included.
      return ref.url.startsWith('#') ? 'ok' : urlStatus(ref.url, options.appUrls ?? []);
    case 'page':
      return exists(revision.pages.has(ref.page));
    case 'anchor':
      // An anchor of "the current page" inside a reusable content: the page is wherever it is included.
      if (ref.page === undefined) return 'ok';
      if (!revision.pages.has(ref.page)) return 'broken';
      return exists(hasAnchor(anchors(ref.page), ref.anchor));
    case 'file':
      return exists(revision.files.has(ref.file));
    case 'reusable-content':
      return exists(revision.reusables.has(ref.reusableContent));
    default:
      // Users, collections, spaces, OpenAPI specs and tags live outside the revision: not judged.
      return 'ok';
  }
}

/**
 * No request is made to an external URL (this code does no I/O): one that parses as an absolute URL is
 * `ok`. One that does not is `broken`, since it leads nowhere: relative Markdown links that name a page
 * or file were already resolved to references when the content was written.
 */
function urlStatus(url: string, appUrls: readonly string[]): LinkStatus {
  const parsed = parseUrl(url);
  if (!parsed) return 'broken';
  return appUrls.some((base) => isUnder(parsed, base)) ? 'in-app' : 'ok';
}

function isUnder(url: URL, base: string): boolean {
  const parsed = parseUrl(base);
  if (!parsed || parsed.origin !== url.origin) return false;
  const prefix = parsed.pathname.replace(/\/+$/, '');
  return url.pathname === prefix || url.pathname.startsWith(`${prefix}/`);
}

const parseUrl = (url: string): URL | undefined => {
  try {
    return new URL(url.trim());
  } catch {
    return undefined;
  }
};

const hasAnchor = (anchors: ReadonlySet<string>, anchor: string) =>
  anchors.has(anchor) || anchors.has(decode(anchor));

const decode = (text: string): string => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

/** Whether a reference names a space other than this one (`spaceId`; any space when unknown). */
function isElsewhere(ref: ContentRef, spaceId: string | undefined): boolean {
  if (ref.kind === 'space') return ref.space !== spaceId;
  const space = (ref as { space?: unknown }).space;
  return typeof space === 'string' && space !== spaceId;
}

const isRef = (value: unknown): value is ContentRef =>
  value !== null && typeof value === 'object' && typeof (value as { kind?: unknown }).kind === 'string';
