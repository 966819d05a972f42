import { type Document, type Frontmatter, gitbookDocument } from '@app/documents/document';
import { DocumentConversions } from '@app/documents/document/conversions';
import { writeFrontmatter } from '@app/documents/document/frontmatter';
import { readContent } from '@app/documents/tree/content';
import { diffRevisions } from '@app/documents/tree/diff';
import type { Hash } from '@app/documents/tree/hash';
import {
  childIds,
  getDocument,
  getFile,
  getPage,
  getPageByPath,
  getVariables,
  listFiles,
  listPages,
  listReusableContents,
  type PageNode,
  type PageView,
} from '@app/documents/tree/page-tree';
import { Access, type Viewer } from '@app/platform/auth/access';
import { notFound } from '@app/platform/domain/decider';
import { hasControlCharacter } from '@app/platform/http/fields';
import { decodePage, encodePage, type ListQuery } from '@app/platform/http/pagination';
import { READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import { arg, Remote } from '@app/platform/rpc/remote-method';
import { SPACES } from '@app/spaces/read/space.projection';
import { Inject, Injectable } from '@nestjs/common';
import { ChangeRequestPresenter } from './change-request.presenter';
import { findChangeRequest } from './change-requests.queries';
import { ContentObjects } from './content-objects.store';
import { type ContentSource, SOURCE_PATTERN } from './content-source';
import {
  type ContentScope,
  type DocumentFormat,
  EMPTY_DOCUMENT,
  RevisionPresenter,
} from './revision.presenter';
import { REVISIONS, type RevisionDoc } from './revision.projection';

const source = () => arg.text('source', SOURCE_PATTERN, 'space, cr:<id> or rev:<id>');

export interface PageReadQuery {
  format?: DocumentFormat;
}

export const isPagePath = (value: unknown): value is string =>
  typeof value === 'string' && value.length > 0 && value.length <= 2048 && !hasControlCharacter(value);

interface Resolved {
  root: Hash;
  revision: RevisionDoc;
  scope: ContentScope;
}

const DEFAULT_FILES_LIMIT = 50;

/**
 * Reads of revision content. Every read finds a content root (the space's current revision, a change
 * request's, any revision by id) and walks down from it through content objects kept in memory, so a
 * page of a revision 10,000 revisions old costs what a page of the latest does.
 */
@Injectable()
export class ContentQueries {
  constructor(
    @Inject(READ_STORE) private readonly views: ReadStore,
    private readonly access: Access,
    private readonly objects: ContentObjects,
    private readonly presenter: RevisionPresenter,
    private readonly changeRequests: ChangeRequestPresenter,
    private readonly conversions: DocumentConversions,
  ) {}

  /** The content root a source names, checking the caller is a member of the space's organization. */
  async resolveSource(spaceId: string, from: ContentSource, viewer: Viewer): Promise<Resolved> {
    const space = await this.views.get(SPACES, spaceId);
    if (!space) throw notFound('Space not found');
    await this.access.content(spaceId, viewer, 'Space');
    const scope: ContentScope = { spaceId, organization: space.organization };
    let revisionId = space.revision;
    if (from.startsWith('cr:')) {
      const cr = await findChangeRequest(this.views, spaceId, from.slice(3));
      revisionId = cr.revision;
      scope.changeRequestNumber = String(cr.number);
    } else if (from.startsWith('rev:')) revisionId = from.slice(4);
    const revision = await this.views.get(REVISIONS, revisionId);
    if (!revision || revision.space !== spaceId) throw notFound('Revision not found');
    return { root: revision.root, revision, scope };
  }

  /** The whole revision: page tree, files, reusable contents, variables. */
  @Remote(arg.id('spaceId'), source(), arg.viewer())
  async revision(spaceId: string, from: ContentSource, viewer: Viewer) {
    const { root, revision, scope } = await this.resolveSource(spaceId, from, viewer);
    const [pages, files, reusables, variables] = await Promise.all([
      listPages(this.objects, root),
      listFiles(this.objects, root),
      listReusableContents(this.objects, root),
      getVariables(this.objects, root),
    ]);
    return this.presenter.revision(
      revision,
      { pages, files, reusables, variables },
      scope,
      await this.mergedFrom(revision),
    );
  }

  @Remote(arg.id('spaceId'), source(), arg.viewer())
  async pages(spaceId: string, from: ContentSource, viewer: Viewer) {
    const { root, scope } = await this.resolveSource(spaceId, from, viewer);
    return { pages: this.presenter.pageTree(await listPages(this.objects, root), scope) };
  }

  /** Files in id order, paged by id. */
  @Remote(arg.id('spaceId'), source(), arg.object<ListQuery>('query'), arg.viewer())
  async files(spaceId: string, from: ContentSource, query: ListQuery, viewer: Viewer) {
    const { root } = await this.resolveSource(spaceId, from, viewer);
    const all = await listFiles(this.objects, root);
    const after = decodePage(query.page);
    const limit = query.limit ?? DEFAULT_FILES_LIMIT;
    const rest = after ? all.filter((f) => f.id > after.id) : all;
    const items = rest.slice(0, limit);
    const last = items.at(-1);
    return {
      ...(rest.length > limit && last ? { next: { page: encodePage({ value: last.id, id: last.id }) } } : {}),
      count: all.length,
      items: items.map((f) => this.presenter.file(f)),
    };
  }

  @Remote(arg.id('spaceId'), source(), arg.id('fileId'), arg.viewer())
  async file(spaceId: string, from: ContentSource, fileId: string, viewer: Viewer) {
    const { root } = await this.resolveSource(spaceId, from, viewer);
    const file = await getFile(this.objects, root, fileId);
    if (!file) throw notFound('File not found');
    return this.presenter.file(file);
  }

  @Remote(arg.id('spaceId'), source(), arg.id('pageId'), arg.object<PageReadQuery>('query'), arg.viewer())
  async pageById(spaceId: string, from: ContentSource, pageId: string, query: PageReadQuery, viewer: Viewer) {
    const resolved = await this.resolveSource(spaceId, from, viewer);
    return this.presentPage(resolved, await getPage(this.objects, resolved.root, pageId), query);
  }

  @Remote(
    arg.id('spaceId'),
    source(),
    arg.shaped('pagePath', isPagePath, 'a page path of 1 to 2048 characters without control characters'),
    arg.object<PageReadQuery>('query'),
    arg.viewer(),
  )
  async pageByPath(spaceId: string, from: ContentSource, path: string, query: PageReadQuery, viewer: Viewer) {
    const resolved = await this.resolveSource(spaceId, from, viewer);
    const page = await getPageByPath(this.objects, resolved.root, path);
    // Links and computed pages have no path; a path names a document or a group.
    return this.presentPage(resolved, page, query);
  }

  /** A page's body as GitBook's JSON document (`getPageDocumentInRevisionById`). */
  @Remote(arg.id('spaceId'), source(), arg.id('pageId'), arg.viewer())
  async pageDocument(spaceId: string, from: ContentSource, pageId: string, viewer: Viewer) {
    const { root } = await this.resolveSource(spaceId, from, viewer);
    const page = await getPage(this.objects, root, pageId);
    if (!page) throw notFound('Page not found');
    if (!page.documentId) throw notFound('Page has no document');
    return gitbookDocument((await getDocument(this.objects, page.documentId)) as unknown as Document);
  }

  /** What a revision changed from its first parent (`getRevisionSemanticChanges`). */
  @Remote(arg.id('spaceId'), arg.id('revisionId'), arg.optional(arg.int('limit', 1)), arg.viewer())
  async revisionChanges(spaceId: string, revisionId: string, limit: number | undefined, viewer: Viewer) {
    const { root, revision } = await this.resolveSource(spaceId, `rev:${revisionId}`, viewer);
    const parent = revision.parents[0] ? await this.views.get(REVISIONS, revision.parents[0]) : null;
    const changes = parent ? await diffRevisions(this.objects, parent.root, root) : [];
    return this.presenter.semanticChanges(changes, limit, await this.mergedFrom(revision));
  }

  /** What a change request changed from its base (`getChangeRequestChanges`). */
  @Remote(arg.id('spaceId'), arg.id('changeRequestId'), arg.optional(arg.int('limit', 1)), arg.viewer())
  async changeRequestChanges(spaceId: string, ref: string, limit: number | undefined, viewer: Viewer) {
    const { root } = await this.resolveSource(spaceId, `cr:${ref}`, viewer);
    const cr = await findChangeRequest(this.views, spaceId, ref);
    const base = await this.views.get(REVISIONS, cr.base);
    const changes = base ? await diffRevisions(this.objects, base.root, root) : [];
    return this.presenter.semanticChanges(changes, limit);
  }

  private async mergedFrom(revision: RevisionDoc) {
    if (revision.type !== 'merge' || !revision.changeRequest) return undefined;
    const cr = await findChangeRequest(this.views, revision.space, revision.changeRequest);
    const space = await this.views.get(SPACES, revision.space);
    return this.changeRequests.present(cr, space?.revision ?? '');
  }

  private async presentPage(resolved: Resolved, page: PageView | undefined, query: PageReadQuery) {
    if (!page) throw notFound('Page not found');
    const children = await this.subtree(resolved.root, page.id);
    const document = page.documentId ? await getDocument(this.objects, page.documentId) : undefined;
    const format = query.format ?? 'document';
    // A stored document may hold up to a million nodes: written out as Markdown on a conversion thread.
    const markdown =
      format === 'markdown' && page.type === 'document'
        ? withFrontmatter(
            page.frontmatter,
            await this.conversions.documentToMarkdown((document as Document | undefined) ?? EMPTY_DOCUMENT),
          )
        : undefined;
    return this.presenter.page(page, children, { document, markdown }, format, resolved.scope);
  }

  /** A page's descendants as a tree, read one level at a time from the children index. */
  private async subtree(root: Hash, id: string): Promise<PageNode[]> {
    const content = await readContent(this.objects, root);
    const ids = await childIds(this.objects, content, id);
    return Promise.all(
      ids.map(async (child) => {
        const view = (await getPage(this.objects, root, child)) as PageView;
        return { ...view, pages: await this.subtree(root, child) };
      }),
    );
  }
}

/**
 * The Markdown of a page, after the frontmatter it was written with that is no page field (another
 * tool's keys, kept as they came: `PageFields.frontmatter`); the page's own fields are the answer's.
 */
export function withFrontmatter(kept: Frontmatter | undefined, markdown: string): string {
  const yaml = kept && writeFrontmatter(kept);
  return yaml ? `---\n${yaml.value}\n---\n\n${markdown}` : markdown;
}
