import type { ContentRef, Document } from '@app/documents/document';
import { type ContentObject, getPageObject } from '@app/documents/tree/content';
import { mapGet } from '@app/documents/tree/merkle-map';
import type { ObjectStore } from '@app/documents/tree/objects';
import { findPageByPath } from '@app/documents/tree/paths';
import { joinPath } from '../gitsync/paths';
import { isRecord } from './check';

/**
 * Links of a Markdown body resolved to GitBook references, as `updateChangeRequestContent` documents:
 * - `./<ref>` or `./<ref>.md`: a page or file inserted by the same batch (refs are known before any
 *   change applies, so the order of the changes does not matter);
 * - `/pages/<id>`, `/pages/<slug path>`, `/pages/<path>.md`, `/pages/<path>/README.md` (with `#anchor`);
 * - `./x.md`, `../x.md`, `./folder`: a page path relative to the page's folder in Git's layout;
 * - `/files/<id>`: a file of the change request or of the batch.
 * Anything else (external URLs, links that match nothing) stays as written.
 */
export interface LinkTargets {
  store: ObjectStore;
  /** The change request's content as edited so far. */
  content: ContentObject;
  pageRefs: ReadonlyMap<string, string>;
  fileRefs: ReadonlyMap<string, string>;
  /** Ids of the pages and files the batch inserts, which may not be in `content` yet. */
  batchPages: ReadonlySet<string>;
  batchFiles: ReadonlySet<string>;
}

const REF_FIELDS = ['ref', 'refDark'] as const;

/**
 * Rewrites the URL references of a document in place; answers whether any changed. `folder` is the path
 * relative links start from (the page's parent's path, or its own when it has children: Git's `README.md`).
 */
export async function resolveLinks(
  document: Document,
  targets: LinkTargets,
  folder: string,
): Promise<boolean> {
  const holders: Array<Record<string, unknown>> = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    if (!isRecord(value)) return;
    if (isRecord(value.data)) holders.push(value.data);
    visit(value.nodes);
    visit(value.fragments);
  };
  visit(document.nodes);
  let changed = false;
  for (const data of holders) {
    for (const field of REF_FIELDS) {
      const ref = data[field];
      if (!isRecord(ref) || ref.kind !== 'url' || typeof ref.url !== 'string') continue;
      const resolved = await resolveUrl(ref.url, targets, folder);
      if (resolved) {
        data[field] = resolved;
        changed = true;
      }
    }
  }
  return changed;
}

async function resolveUrl(
  url: string,
  targets: LinkTargets,
  folder: string,
): Promise<ContentRef | undefined> {
  const hash = url.indexOf('#');
  const target = hash < 0 ? url : url.slice(0, hash);
  const anchor = hash < 0 ? undefined : url.slice(hash + 1);
  const toPage = (page: string | undefined): ContentRef | undefined =>
    page === undefined ? undefined : anchor ? { kind: 'anchor', page, anchor } : { kind: 'page', page };

  if (target.startsWith('./')) {
    const name = decode(target.slice(2)) ?? '';
    const file = targets.fileRefs.get(name);
    if (file !== undefined) return { kind: 'file', file };
    const page = targets.pageRefs.get(name) ?? targets.pageRefs.get(name.replace(/\.md$/, ''));
    if (page !== undefined) return toPage(page);
  }
  if (target.startsWith('/files/')) {
    const id = decode(target.slice('/files/'.length));
    if (id !== undefined && (targets.batchFiles.has(id) || (await fileExists(targets, id))))
      return { kind: 'file', file: id };
    return undefined;
  }
  if (target.startsWith('/pages/')) {
    const rest = decode(target.slice('/pages/'.length));
    if (rest === undefined) return undefined;
    if (targets.batchPages.has(rest) || (await getPageObject(targets.store, targets.content, rest)))
      return toPage(rest);
    return toPage(await pageAt(targets, gitPath(rest)));
  }
  if (target.startsWith('./') || target.startsWith('../') || /^[\w-]+(\/[\w.-]+)*\.md$/.test(target)) {
    const path = joinPath(folder, decode(target) ?? '');
    return path === undefined ? undefined : toPage(await pageAt(targets, gitPath(path)));
  }
  return undefined;
}

const decode = (text: string): string | undefined => {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
};

async function fileExists(targets: LinkTargets, id: string): Promise<boolean> {
  return (await mapGet(targets.store, targets.content.files, id)) !== undefined;
}

async function pageAt(targets: LinkTargets, path: string): Promise<string | undefined> {
  if (path === '') return undefined;
  return (await findPageByPath(targets.store, targets.content, path))?.id;
}

/** A page path from the path of its Markdown file in Git: `a/b.md` and `a/b/README.md` are `a/b`. */
const gitPath = (path: string): string =>
  path
    .replace(/\/+$/, '')
    .replace(/(^|\/)README\.md$/i, '')
    .replace(/\.md$/i, '');
