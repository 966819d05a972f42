import { type Document, gitbookDocument } from '@app/documents/document';
import type { FileObject, ReusableContentObject } from '@app/documents/tree/content';
import type { AttributeChange, ChangedPage, ContentChange } from '@app/documents/tree/diff';
import type { JsonObject, JsonValue } from '@app/documents/tree/hash';
import type { PageType } from '@app/documents/tree/page';
import type { PageNode, PageView } from '@app/documents/tree/page-tree';
import { Urls } from '@app/platform/http/urls';
import { Injectable } from '@nestjs/common';

/**
 * Stored content in GitBook's response shapes (`RevisionPage*`, `RevisionFile`, `Revision`,
 * `RevisionSemanticChanges`), field for field: every field the schema requires, none it does not list
 * (test/support/openapi.ts checks answers so), optional ones only when stored.
 */

export type DocumentFormat = 'document' | 'markdown';

export interface ContentScope {
  spaceId: string;
  organization: string;
  /** Where the page urls point: the space content or a change request. */
  /** The change request read, by its number (app urls name it so). */
  changeRequestNumber?: string;
}

export interface PageBody {
  /** The stored JSON document, or undefined when the page has none. */
  document?: JsonValue;
  /** The document as Markdown, when that is the format asked for: converted off the serving thread. */
  markdown?: string;
}

export interface RevisionRecord {
  id: string;
  parents: string[];
  type: 'edits' | 'merge' | 'update';
  createdAt: string;
}

export interface RevisionContent {
  pages: PageNode[];
  files: FileObject[];
  reusables: ReusableContentObject[];
  variables: Record<string, unknown>;
}

type Json = Record<string, unknown>;

/**
 * The layout of a page that has none stored, or the fields a stored one lacks. GitBook's schema gives no
 * default; these are the `docs` layout its editor starts a page with: default width, the cover (when
 * there is one) shown full width without a mask, and every part of the page visible.
 */
export const DEFAULT_LAYOUT = {
  width: 'default',
  cover: true,
  coverSize: 'full',
  coverMask: 'none',
  title: true,
  description: true,
  tableOfContents: true,
  outline: true,
  pagination: true,
  metadata: true,
  tags: true,
  actions: true,
  anchors: true,
} as const;

const LAYOUT_CHOICES: Record<string, readonly string[]> = {
  width: ['default', 'wide'],
  coverSize: ['hero', 'full', 'background'],
  coverMask: ['none', 'radial'],
};

const COVER_FIELDS = ['ref', 'refDark', 'textColor', 'textColorDark', 'yPos', 'height'];

/** What an empty page's body is: GitBook's schema has no page without one (see `page`). */
export const EMPTY_DOCUMENT: Document = { object: 'document', data: {}, nodes: [] };

/**
 * The page fields GitBook's `RevisionPage*ChangeAttributes` list for each type, by stored name → its
 * name there; other changed fields (hidden, icon, updatedAt, …) have no place in a `page_edited`.
 * Computed pages have no attributes schema: title and emoji are the ones all three share.
 */
const PAGE_ATTRIBUTES: Record<PageType, Record<string, string>> = {
  document: {
    title: 'title',
    description: 'description',
    slug: 'slug',
    documentId: 'document',
    cover: 'cover',
    emoji: 'emoji',
    layout: 'layout',
    variables: 'variables',
  },
  group: { title: 'title', emoji: 'emoji', slug: 'slug' },
  link: { title: 'title', emoji: 'emoji', target: 'target' },
  computed: { title: 'title', emoji: 'emoji' },
};
const FILE_ATTRIBUTES = {
  name: 'name',
  downloadURL: 'downloadURL',
  size: 'size',
  contentType: 'contentType',
  dimensions: 'dimensions',
};
const REUSABLE_ATTRIBUTES = { title: 'title', documentId: 'document' };

@Injectable()
export class RevisionPresenter {
  constructor(private readonly urls: Urls) {}

  /** GitBook's RevisionPage for each node, with its `pages`, without bodies (listPages, Revision). */
  pageTree(nodes: PageNode[], scope: ContentScope): Json[] {
    return nodes.map((node) => this.present(node, node.pages, scope));
  }

  /**
   * One page as getPageById / getPageByPath answer it, its child pages included. Only document pages have
   * a body. GitBook's `Document` union has an `Empty` member for a page without one, but that member
   * forbids every property and so matches no page (it sits in an allOf with the page's own fields): a
   * page with no stored body answers the empty document, which is what its body is.
   */
  page(
    view: PageView,
    children: PageNode[],
    body: PageBody,
    format: DocumentFormat,
    scope: ContentScope,
  ): Json {
    if (view.type !== 'document') return this.present(view, children, scope);
    const document = (body.document as Document | undefined) ?? EMPTY_DOCUMENT;
    // The page's fields are the answer's own properties: the Markdown is the body, as MarkdownDocument
    // describes it ("content of the document formatted as markdown"), after only the frontmatter keys
    // that are no page field, kept from the Markdown the page was written with (`withFrontmatter`).
    const content =
      format === 'markdown' ? { markdown: body.markdown ?? '' } : { document: gitbookDocument(document) };
    return this.present(view, children, scope, content);
  }

  /** GitBook's RevisionFile. */
  file(file: FileObject): Json {
    return presentFile(file);
  }

  /** GitBook's RevisionReusableContent: `document` names the body's document (its hash). */
  reusableContent(reusable: ReusableContentObject): Json {
    return {
      id: reusable.id,
      title: reusable.title,
      ...(reusable.documentId !== undefined && { document: reusable.documentId }),
      ...(reusable.git && { git: blob(reusable.git) }),
    };
  }

  /** GitBook's Revision; `mergedFrom`, the presented change request, is required of a merge. */
  revision(
    revision: RevisionRecord,
    content: RevisionContent,
    scope: ContentScope,
    mergedFrom?: object,
  ): Json {
    if (revision.type === 'merge' && !mergedFrom) {
      throw new Error(`merge revision ${revision.id} presented without the change request it merged`);
    }
    return {
      object: 'revision',
      id: revision.id,
      parents: [...revision.parents],
      type: revision.type,
      // Only RevisionTypeMerge has `mergedFrom`; the other types' schemas do not list it.
      ...(revision.type === 'merge' && { mergedFrom }),
      createdAt: revision.createdAt,
      pages: this.pageTree(content.pages, scope),
      files: content.files.map((file) => this.file(file)),
      reusableContents: content.reusables.map((reusable) => this.reusableContent(reusable)),
      // Required by RevisionBase; this project has no revision tags.
      tags: [],
      variables: content.variables,
      urls: { app: `${this.spaceApp(scope)}/~/revisions/${revision.id}` },
    };
  }

  /**
   * GitBook's RevisionSemanticChanges. Edits whose changed fields GitBook's attribute schemas do not
   * list are left out (an `attributes` must hold one at least); `limit` cuts what remains, `more` counts
   * what it cut.
   */
  semanticChanges(changes: ContentChange[], limit: number | undefined, mergedFrom?: object): Json {
    const presented = changes.map(semanticChange).filter((change): change is Json => change !== undefined);
    const shown = limit === undefined ? presented : presented.slice(0, limit);
    const more = presented.length - shown.length;
    return {
      ...(mergedFrom && { mergedFrom }),
      changes: shown,
      ...(more > 0 && { more }),
    };
  }

  private spaceApp(scope: ContentScope): string {
    return this.urls.app(`/o/${scope.organization}/s/${scope.spaceId}`);
  }

  private pageApp(id: string, scope: ContentScope): string {
    const changes = scope.changeRequestNumber === undefined ? '' : `/~/changes/${scope.changeRequestNumber}`;
    return `${this.spaceApp(scope)}${changes}/page/${id}`;
  }

  /** The page in its type's schema; `content` is a document page's body, when answered. */
  private present(page: PageView, children: PageNode[], scope: ContentScope, content?: Json): Json {
    const base = {
      id: page.id,
      title: page.title,
      ...pick(page, ['linkTitle', 'emoji', 'icon', 'createdAt', 'updatedAt', 'condition']),
    };
    const pages = () => this.pageTree(children, scope);
    switch (page.type) {
      case 'document':
        return {
          ...base,
          // Deprecated in GitBook's schema, and still required.
          kind: 'sheet',
          type: 'document',
          ...content,
          urls: { app: this.pageApp(page.id, scope) },
          slug: page.slug ?? '',
          path: page.path ?? '',
          ...pick(page, ['description']),
          pages: pages(),
          layout: layout(page.layout),
          ...(page.cover && { cover: cover(page.cover) }),
          ...pick(page, ['variables', 'hidden', 'noIndex', 'noRobotsIndex']),
          tags: [],
          // Not `computed`: the schema's union of {computed, computedSeed} and {documentId} is open on
          // both sides, so a page with `computed` would match both members and fail `oneOf`.
          ...pick(page, ['documentId']),
        };
      case 'group':
        return {
          ...base,
          kind: 'group',
          type: 'group',
          slug: page.slug ?? '',
          path: page.path ?? '',
          ...pick(page, ['hidden', 'noIndex', 'noRobotsIndex']),
          pages: pages(),
        };
      case 'link':
        return {
          ...base,
          kind: 'link',
          type: 'link',
          target: page.target ?? { kind: 'url', url: page.href ?? '' },
          ...pick(page, ['href', 'hidden']),
        };
      case 'computed':
        // RevisionPageComputed has neither `kind` nor `pages`: it stands for the pages it generates.
        return { ...base, type: 'computed', computed: page.computed ?? {} };
    }
  }
}

/** GitBook's RevisionFile (also what a content update's `insertedFiles` holds). One argument: fit for `map`. */
export function presentFile(file: FileObject): Json {
  return {
    id: file.id,
    name: file.name,
    contentType: file.contentType,
    downloadURL: file.downloadURL,
    size: file.size,
    ...(file.dimensions && { dimensions: dimensions(file.dimensions) }),
    ...(file.git && { git: blob(file.git) }),
  };
}

/** The fields of `source` among `keys` that are set. */
function pick(source: object, keys: readonly string[]): Json {
  const record = source as Json;
  const out: Json = {};
  for (const key of keys) if (record[key] !== undefined) out[key] = record[key];
  return out;
}

const dimensions = (d: { width: number; height: number }) => ({ width: d.width, height: d.height });
const blob = (git: { oid: string; path: string }) => ({ oid: git.oid, path: git.path });

/**
 * RevisionPageLayoutOptions, every field set: the stored value where it is one GitBook allows, else the
 * default. A layout from Git Sync frontmatter says `title: {visible: true}` and `cover: {visible, size}`.
 */
export function layout(stored: JsonObject | undefined): Json {
  const out: Json = { ...DEFAULT_LAYOUT };
  if (!stored) return out;
  for (const key of Object.keys(DEFAULT_LAYOUT)) {
    let value = stored[key];
    if (isObject(value)) {
      if (key === 'cover' && typeof value.size === 'string' && stored.coverSize === undefined) {
        out.coverSize = LAYOUT_CHOICES.coverSize.includes(value.size) ? value.size : out.coverSize;
      }
      value = value.visible;
    }
    const allowed = LAYOUT_CHOICES[key];
    if (allowed ? typeof value === 'string' && allowed.includes(value) : typeof value === 'boolean') {
      out[key] = value;
    }
  }
  return out;
}

/** RevisionPageDocumentCover: its own fields only, with `yPos` (required) at its schema's default. */
function cover(stored: JsonObject): Json {
  const out = pick(stored, COVER_FIELDS);
  return typeof out.yPos === 'number' ? out : { ...out, yPos: 0 };
}

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const changedPage = (page: ChangedPage): Json => ({
  id: page.id,
  type: page.type,
  title: page.title,
  ...pick(page, ['path']),
});

const changedFile = (file: FileObject): Json => ({
  id: file.id,
  name: file.name,
  contentType: file.contentType,
  downloadURL: file.downloadURL,
});

const changedReusable = (reusable: ReusableContentObject): Json => ({
  id: reusable.id,
  title: reusable.title,
  ...(reusable.documentId !== undefined && { document: reusable.documentId }),
});

/** The change in its RevisionSemanticChange* schema; undefined for an edit none of whose fields it lists. */
function semanticChange(change: ContentChange): Json | undefined {
  switch (change.type) {
    case 'page_created':
    case 'page_deleted':
      return { type: change.type, page: changedPage(change.page) };
    case 'page_edited': {
      const attributes = renameAttributes(change.attributes, PAGE_ATTRIBUTES[change.page.type], pageValue);
      return attributes && { type: change.type, page: changedPage(change.page), attributes };
    }
    case 'page_moved':
      return {
        type: change.type,
        page: changedPage(change.page),
        parent: {
          ...(change.parent.before && { before: changedPage(change.parent.before) }),
          ...(change.parent.after && { after: changedPage(change.parent.after) }),
        },
      };
    case 'file_created':
    case 'file_deleted':
      return { type: change.type, file: changedFile(change.file) };
    case 'file_edited': {
      const attributes = renameAttributes(change.attributes, FILE_ATTRIBUTES, fileValue);
      return attributes && { type: change.type, file: changedFile(change.file), attributes };
    }
    case 'reusable_content_created':
    case 'reusable_content_deleted':
      return { type: change.type, reusableContent: changedReusable(change.reusableContent) };
    case 'reusable_content_edited': {
      const attributes = renameAttributes(change.attributes, REUSABLE_ATTRIBUTES, (_, v) => v);
      return (
        attributes && {
          type: change.type,
          reusableContent: changedReusable(change.reusableContent),
          attributes,
        }
      );
    }
    case 'variables_edited':
      return { type: change.type, variables: change.variables };
  }
}

type PresentValue = (field: string, value: JsonValue | undefined) => unknown;

/**
 * The attributes GitBook names (`names`: stored field → GitBook's), each side presented by `present`;
 * a field whose two sides present alike is no change. Undefined when none is left.
 */
function renameAttributes(
  attributes: Record<string, AttributeChange>,
  names: Record<string, string>,
  present: PresentValue,
): Json | undefined {
  const out: Json = {};
  for (const [field, { before, after }] of Object.entries(attributes)) {
    const name = names[field];
    if (name === undefined) continue;
    const was = present(field, before);
    const is = present(field, after);
    if (JSON.stringify(was) === JSON.stringify(is)) continue;
    out[name] = { ...(was !== undefined && { before: was }), ...(is !== undefined && { after: is }) };
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** A page field's value as the page shows it: a page always has a layout, so none stored is the default. */
const pageValue: PresentValue = (field, value) => {
  if (field === 'layout') return layout(value as JsonObject | undefined);
  if (field === 'cover' && isObject(value)) return cover(value);
  return value;
};

const fileValue: PresentValue = (field, value) =>
  field === 'dimensions' && isObject(value) ? dimensions(value as { width: number; height: number }) : value;
