import { type Document, documentToMarkdown, gitbookDocument } from '@app/documents/document';
import type { FileObject } from '@app/documents/tree/content';
import { doc, edit, newStore } from '@app/documents/tree/content.testing';
import { type ContentChange, diffRevisions } from '@app/documents/tree/diff';
import type { Hash } from '@app/documents/tree/hash';
import type { MemoryObjectStore } from '@app/documents/tree/objects';
import {
  getDocument,
  getPage,
  getPageByPath,
  getVariables,
  listFiles,
  listPages,
  listReusableContents,
  type PageNode,
} from '@app/documents/tree/page-tree';
import type { Config } from '@app/platform/config/config';
import { Urls } from '@app/platform/http/urls';
import { responseProblem, schemaProblem } from '../../../test/support/openapi';
import { type ContentScope, DEFAULT_LAYOUT, presentFile, RevisionPresenter } from './revision.presenter';

type Json = Record<string, unknown>;

const presenter = new RevisionPresenter(new Urls({ publicUrl: 'https://docs.test' } as Config));
const scope: ContentScope = { spaceId: 'space1', organization: 'org1' };
const SPACE_APP = 'https://docs.test/app/o/org1/s/space1';

const OPENAPI_SOURCE = {
  type: 'builtin:openapi',
  dependencies: { spec: { ref: { kind: 'openapi', spec: 'petstore' } } },
  props: { models: true },
};

const png: FileObject = {
  id: 'img',
  name: 'a.png',
  contentType: 'image/png',
  downloadURL: 'https://files.test/a.png',
  size: 10,
  dimensions: { width: 4, height: 3 },
};

/**
 * intro (document: emoji, description, body) · guides (group) ▸ setup (hidden, no body), usage ▸ cli,
 * home (link) · styled (layout and cover) · api (computed) · docs (top-level link).
 */
async function sample(store: MemoryObjectStore): Promise<Hash> {
  return edit(store, null, async (e) => {
    await e.insertPage({
      id: 'intro',
      type: 'document',
      title: 'Intro',
      slug: 'intro',
      emoji: '🎉',
      description: 'Where to start',
      document: doc(['a', 'Hello'], ['b', 'World']),
    });
    await e.insertPage({ id: 'guides', type: 'group', title: 'Guides', slug: 'guides', emoji: '1f4da' });
    await e.insertPage({
      id: 'setup',
      type: 'document',
      title: 'Setup',
      slug: 'setup',
      parent: 'guides',
      hidden: true,
    });
    await e.insertPage({
      id: 'usage',
      type: 'document',
      title: 'Usage',
      slug: 'usage',
      parent: 'guides',
      document: doc(['u', 'Use it']),
    });
    await e.insertPage({
      id: 'cli',
      type: 'document',
      title: 'CLI',
      slug: 'cli',
      parent: 'usage',
      noIndex: true,
      icon: 'terminal',
      linkTitle: 'Command line',
    });
    await e.insertPage({
      id: 'home',
      type: 'link',
      title: 'Home',
      parent: 'guides',
      target: { kind: 'url', url: 'https://example.com' },
      href: 'https://example.com',
      hidden: true,
    });
    await e.insertPage({
      id: 'styled',
      type: 'document',
      title: 'Styled',
      slug: 'styled',
      // Partial, and partly in Git Sync's `{visible}` form.
      layout: { width: 'wide', title: { visible: false }, outline: false, coverSize: 'nope' },
      cover: { ref: { kind: 'url', url: 'https://img.test/c.png' } },
      variables: { version: '2.0' },
      createdAt: '2024-01-01T00:00:00.000Z',
      updatedAt: '2024-01-02T00:00:00.000Z',
    });
    await e.insertPage({ id: 'api', type: 'computed', title: 'API', computed: OPENAPI_SOURCE });
    await e.insertPage({
      id: 'docs',
      type: 'link',
      title: 'Docs',
      target: { kind: 'page', page: 'intro' },
    });
    await e.putFile(png);
    await e.putReusableContent({ id: 'snippet', title: 'Snippet', document: doc(['s', 'Reused']) });
    await e.putReusableContent({ id: 'blank', title: 'Blank', git: { oid: 'abc', path: 'blank.md' } });
    e.setVariables({ product: 'Docs Hub' });
  });
}

const find = (nodes: PageNode[], id: string): PageNode | undefined => {
  for (const node of nodes) {
    const found = node.id === id ? node : find(node.pages, id);
    if (found) return found;
  }
  return undefined;
};

const CHANGE_REQUEST = {
  object: 'change-request',
  id: 'cr1',
  number: 1,
  status: 'merged',
  subject: 'Better docs',
  createdBy: {
    object: 'user',
    id: 'u1',
    displayName: 'Ada',
    urls: { location: 'https://docs.test/v1/users/u1' },
  },
  createdAt: '2024-01-01T00:00:00.000Z',
  updatedAt: '2024-01-02T00:00:00.000Z',
  mergedAt: '2024-01-02T00:00:00.000Z',
  space: 'space1',
  revision: 'r2',
  revisionInitial: 'r0',
  revisionMerged: 'r3',
  comments: 0,
  outdated: false,
  urls: {
    location: 'https://docs.test/v1/spaces/space1/change-requests/cr1',
    app: `${SPACE_APP}/~/changes/1`,
  },
};

describe('RevisionPresenter', () => {
  let store: MemoryObjectStore;
  let root: Hash;
  let tree: PageNode[];

  beforeAll(async () => {
    store = newStore();
    root = await sample(store);
    tree = await listPages(store, root);
  });

  it('the mergedFrom fixture is a GitBook ChangeRequest', () => {
    expect(schemaProblem('ChangeRequest', CHANGE_REQUEST)).toBeUndefined();
  });

  describe('page tree', () => {
    it('presents every type of page as listPages answers it', () => {
      const pages = presenter.pageTree(tree, scope);
      expect(responseProblem('listPages', 200, { pages })).toBeUndefined();
      expect(pages.map((p) => [p.id, p.type, p.kind])).toEqual([
        ['intro', 'document', 'sheet'],
        ['guides', 'group', 'group'],
        ['styled', 'document', 'sheet'],
        ['api', 'computed', undefined],
        ['docs', 'link', 'link'],
      ]);
    });

    it('gives a document page its fields, urls, default layout and tags, and only the optional fields it has', () => {
      const [intro] = presenter.pageTree(tree, scope);
      expect(intro).toEqual({
        id: 'intro',
        title: 'Intro',
        emoji: '🎉',
        kind: 'sheet',
        type: 'document',
        urls: { app: `${SPACE_APP}/page/intro` },
        slug: 'intro',
        path: 'intro',
        description: 'Where to start',
        pages: [],
        layout: DEFAULT_LAYOUT,
        tags: [],
        documentId: find(tree, 'intro')?.documentId,
      });
      expect(intro.documentId).toEqual(expect.any(String));
    });

    it('nests children under groups and documents, with paths, flags and links', () => {
      const guides = presenter.pageTree(tree, scope)[1];
      expect(guides).toMatchObject({ kind: 'group', slug: 'guides', path: 'guides', emoji: '1f4da' });
      expect(guides).not.toHaveProperty('urls');
      expect(guides).not.toHaveProperty('layout');
      const [setup, usage, home] = guides.pages as Json[];
      expect(setup).toMatchObject({ id: 'setup', path: 'guides/setup', hidden: true, pages: [] });
      expect(setup).not.toHaveProperty('documentId');
      expect(usage).toMatchObject({ path: 'guides/usage', pages: [{ id: 'cli', path: 'guides/usage/cli' }] });
      expect((usage.pages as Json[])[0]).toMatchObject({
        noIndex: true,
        icon: 'terminal',
        linkTitle: 'Command line',
      });
      expect(home).toEqual({
        id: 'home',
        title: 'Home',
        kind: 'link',
        type: 'link',
        target: { kind: 'url', url: 'https://example.com' },
        href: 'https://example.com',
        hidden: true,
      });
    });

    it('fills a partial layout with the defaults and keeps cover, variables and times', () => {
      const styled = presenter.pageTree(tree, scope)[2];
      expect(styled.layout).toEqual({ ...DEFAULT_LAYOUT, width: 'wide', title: false, outline: false });
      expect(styled).toMatchObject({
        cover: { ref: { kind: 'url', url: 'https://img.test/c.png' }, yPos: 0 },
        variables: { version: '2.0' },
        createdAt: '2024-01-01T00:00:00.000Z',
        updatedAt: '2024-01-02T00:00:00.000Z',
      });
    });

    it('gives a computed page its source and nothing its schema lacks', () => {
      expect(presenter.pageTree(tree, scope)[3]).toEqual({
        id: 'api',
        title: 'API',
        type: 'computed',
        computed: OPENAPI_SOURCE,
      });
    });

    it('points page urls into the change request, by its number, when reading one', () => {
      // The scope carries the change request's number (as a string), not its id: `/~/changes/<number>`.
      const [intro] = presenter.pageTree(tree, { ...scope, changeRequestNumber: '9' });
      expect((intro.urls as Json).app).toBe(`${SPACE_APP}/~/changes/9/page/intro`);
    });
  });

  describe('one page', () => {
    const children = (id: string) => find(tree, id)?.pages ?? [];

    it('answers the document in format document, with its children', async () => {
      const view = await getPage(store, root, 'usage');
      if (!view?.documentId) throw new Error('no usage page');
      const stored = await getDocument(store, view.documentId);
      const page = presenter.page(view, children('usage'), { document: stored }, 'document', scope);
      expect(responseProblem('getPageById', 200, page)).toBeUndefined();
      expect(responseProblem('getPageInRevisionById', 200, page)).toBeUndefined();
      expect(page.document).toEqual(gitbookDocument(stored as unknown as Document));
      expect(page).not.toHaveProperty('markdown');
      expect(page.pages).toEqual(presenter.pageTree(children('usage'), scope));
      expect((page.pages as Json[])[0]).toMatchObject({ id: 'cli', kind: 'sheet' });
    });

    it('answers Markdown in format markdown, by path too', async () => {
      const view = await getPageByPath(store, root, 'intro');
      if (!view?.documentId) throw new Error('no intro page');
      const stored = await getDocument(store, view.documentId);
      // The caller writes the Markdown out (on a conversion thread); the page carries it.
      const markdown = documentToMarkdown(stored as unknown as Document);
      const page = presenter.page(view, [], { document: stored, markdown }, 'markdown', scope);
      expect(responseProblem('getPageByPath', 200, page)).toBeUndefined();
      expect(responseProblem('getPageById', 200, page)).toBeUndefined();
      expect(page.markdown).toBe('Hello\n\nWorld\n');
      expect(page).toMatchObject({ emoji: '🎉', description: 'Where to start', path: 'intro' });
      expect(page).not.toHaveProperty('document');
    });

    it('answers the empty body for a page that has none, in both formats', async () => {
      const view = await getPage(store, root, 'setup');
      if (!view) throw new Error('no setup page');
      const markdown = presenter.page(view, [], {}, 'markdown', scope);
      const document = presenter.page(view, [], {}, 'document', scope);
      expect(responseProblem('getPageById', 200, markdown)).toBeUndefined();
      expect(responseProblem('getPageById', 200, document)).toBeUndefined();
      expect(markdown.markdown).toBe('');
      expect(document.document).toEqual({ object: 'document', data: {}, nodes: [] });
      expect(document).toMatchObject({ hidden: true, path: 'guides/setup' });
      expect(document).not.toHaveProperty('documentId');
    });

    it('answers a group with its pages and no body, by id and by path', async () => {
      const view = await getPageByPath(store, root, 'guides');
      if (!view) throw new Error('no guides page');
      const page = presenter.page(view, children('guides'), {}, 'markdown', scope);
      expect(responseProblem('getPageByPath', 200, page)).toBeUndefined();
      expect(responseProblem('getPageById', 200, page)).toBeUndefined();
      expect(page).not.toHaveProperty('markdown');
      expect((page.pages as Json[]).map((p) => p.id)).toEqual(['setup', 'usage', 'home']);
    });

    it('answers link and computed pages by id, without a body', async () => {
      for (const id of ['home', 'api', 'docs']) {
        const view = await getPage(store, root, id);
        if (!view) throw new Error(`no ${id} page`);
        const page = presenter.page(view, [], {}, 'document', scope);
        expect(responseProblem('getPageById', 200, page)).toBeUndefined();
        expect(page).not.toHaveProperty('document');
      }
    });
  });

  it('presents files as listFiles items', async () => {
    const files = await listFiles(store, root);
    const items = [
      ...files,
      { ...png, id: 'doc', dimensions: undefined, git: { oid: 'f1', path: 'a/doc.pdf' } },
    ].map((f) => presenter.file(f));
    expect(responseProblem('listFiles', 200, { items, count: items.length })).toBeUndefined();
    expect(responseProblem('getFileById', 200, items[0])).toBeUndefined();
    expect(items[0]).toEqual(png);
    expect(items[1]).not.toHaveProperty('dimensions');
    // The same shape for a content update's `insertedFiles`, mapped with the function itself.
    expect(files.map(presentFile)).toEqual(items.slice(0, 1));
  });

  describe('revision', () => {
    const record = {
      id: 'r1',
      parents: ['r0'],
      type: 'edits' as const,
      createdAt: '2024-01-03T00:00:00.000Z',
    };

    async function content() {
      const [pages, files, reusables, variables] = await Promise.all([
        listPages(store, root),
        listFiles(store, root),
        listReusableContents(store, root),
        getVariables(store, root),
      ]);
      return { pages, files, reusables, variables };
    }

    it('presents an edits revision with its pages, files, reusable contents and variables', async () => {
      // A stored revision record has more fields than the presenter reads: none may leak.
      const revision = presenter.revision(
        { ...record, root: 'h', space: 'space1' } as typeof record,
        await content(),
        scope,
      );
      expect(responseProblem('getRevisionById', 200, revision)).toBeUndefined();
      expect(responseProblem('getCurrentRevision', 200, revision)).toBeUndefined();
      expect(revision).toMatchObject({
        object: 'revision',
        id: 'r1',
        parents: ['r0'],
        type: 'edits',
        createdAt: record.createdAt,
        tags: [],
        variables: { product: 'Docs Hub' },
        urls: { app: `${SPACE_APP}/~/revisions/r1` },
      });
      expect(revision).not.toHaveProperty('root');
      expect(revision).not.toHaveProperty('mergedFrom');
      expect(revision.pages).toEqual(presenter.pageTree(tree, scope));
      const reusables = revision.reusableContents as Json[];
      expect(reusables).toContainEqual({
        id: 'blank',
        title: 'Blank',
        git: { oid: 'abc', path: 'blank.md' },
      });
      const snippet = (await listReusableContents(store, root)).find((r) => r.id === 'snippet');
      expect(reusables).toContainEqual({ id: 'snippet', title: 'Snippet', document: snippet?.documentId });
    });

    it('presents an update revision and an empty one', async () => {
      const empty = { pages: [], files: [], reusables: [], variables: {} };
      const revision = presenter.revision({ ...record, type: 'update', parents: ['a', 'b'] }, empty, scope);
      expect(responseProblem('getRevisionById', 200, revision)).toBeUndefined();
      expect(revision).toMatchObject({ pages: [], files: [], reusableContents: [], variables: {} });
    });

    it('gives a merge revision the change request it merged, and requires one', async () => {
      const merge = { ...record, type: 'merge' as const, parents: ['r0', 'r2'] };
      const revision = presenter.revision(merge, await content(), scope, CHANGE_REQUEST);
      expect(responseProblem('getRevisionById', 200, revision)).toBeUndefined();
      expect(revision.mergedFrom).toBe(CHANGE_REQUEST);
      const rest = await content();
      expect(() => presenter.revision(merge, rest, scope)).toThrow(/change request/);
    });

    it('leaves mergedFrom out of other types', async () => {
      const revision = presenter.revision(record, await content(), scope, CHANGE_REQUEST);
      expect(revision).not.toHaveProperty('mergedFrom');
    });
  });

  describe('semantic changes', () => {
    let changes: ContentChange[];

    beforeAll(async () => {
      const next = await edit(store, root, async (e) => {
        await e.insertPage({ id: 'faq', type: 'document', title: 'FAQ', slug: 'faq', parent: 'guides' });
        await e.deletePage('styled');
        await e.updatePage('intro', {
          title: 'Introduction',
          description: null,
          document: doc(['a', 'Hello again']),
          layout: { width: 'wide' },
          hidden: true,
        });
        // A change of fields GitBook's attributes do not list: no page_edited.
        await e.updatePage('cli', { noIndex: false, icon: 'code' });
        await e.movePage('cli', { parent: 'guides' });
        await e.updatePage('guides', { slug: 'how-to', emoji: null });
        await e.updatePage('home', { target: { kind: 'url', url: 'https://example.org' } });
        await e.putFile({ ...png, name: 'b.png', size: 12 });
        await e.putFile({
          ...png,
          id: 'pdf',
          name: 'a.pdf',
          contentType: 'application/pdf',
          dimensions: undefined,
        });
        await e.putReusableContent({
          id: 'snippet',
          title: 'Snippet 2',
          document: doc(['s', 'Reused twice']),
        });
        // Git metadata only: GitBook's attributes do not list it, no reusable_content_edited.
        await e.putReusableContent({ id: 'blank', title: 'Blank', git: { oid: 'def', path: 'blank.md' } });
        await e.putReusableContent({ id: 'new', title: 'New' });
        e.setVariables({ product: 'Docs Hub 2', edition: 'pro' });
      });
      const gone = await edit(store, next, async (e) => {
        await e.deleteFile('pdf');
        await e.deleteReusableContent('new');
      });
      changes = [...(await diffRevisions(store, root, next)), ...(await diffRevisions(store, next, gone))];
    });

    it('presents every kind of change in its schema', () => {
      const body = presenter.semanticChanges(changes, undefined);
      expect(responseProblem('getRevisionSemanticChanges', 200, body)).toBeUndefined();
      expect((body.changes as Json[]).map((c) => c.type).sort()).toEqual([
        'file_created',
        'file_deleted',
        'file_edited',
        'page_created',
        'page_deleted',
        'page_edited',
        'page_edited',
        'page_edited',
        'page_moved',
        'reusable_content_created',
        'reusable_content_deleted',
        'reusable_content_edited',
        'variables_edited',
      ]);
      expect(body).not.toHaveProperty('more');
      expect(body).not.toHaveProperty('mergedFrom');
    });

    it("names the edited fields as GitBook's attribute schemas do", () => {
      const body = presenter.semanticChanges(changes, undefined);
      const edited = (id: string) =>
        (body.changes as Json[]).find((c) => c.type === 'page_edited' && (c.page as Json).id === id);
      const intro = edited('intro') as Json;
      expect(intro.page).toEqual({ id: 'intro', type: 'document', title: 'Introduction', path: 'intro' });
      const attributes = intro.attributes as Json;
      expect(Object.keys(attributes).sort()).toEqual(['description', 'document', 'layout', 'title']);
      expect(attributes.title).toEqual({ before: 'Intro', after: 'Introduction' });
      expect(attributes.description).toEqual({ before: 'Where to start' });
      expect(attributes.layout).toEqual({
        before: DEFAULT_LAYOUT,
        after: { ...DEFAULT_LAYOUT, width: 'wide' },
      });
      expect(attributes.document).toEqual({ before: expect.any(String), after: expect.any(String) });
      expect(edited('guides')?.attributes).toEqual({
        emoji: { before: '1f4da' },
        slug: { before: 'guides', after: 'how-to' },
      });
      expect(edited('home')?.attributes).toEqual({
        target: {
          before: { kind: 'url', url: 'https://example.com' },
          after: { kind: 'url', url: 'https://example.org' },
        },
      });
      expect(edited('cli')).toBeUndefined();
    });

    it('presents moves, files, reusable contents and variables with the fields their schemas list', () => {
      const body = presenter.semanticChanges(changes, undefined);
      const of = (type: string) => (body.changes as Json[]).filter((c) => c.type === type);
      expect(of('page_moved')).toEqual([
        {
          type: 'page_moved',
          page: { id: 'cli', type: 'document', title: 'CLI', path: 'how-to/cli' },
          parent: {
            before: { id: 'usage', type: 'document', title: 'Usage', path: 'guides/usage' },
            after: { id: 'guides', type: 'group', title: 'Guides', path: 'how-to' },
          },
        },
      ]);
      expect(of('file_edited')).toEqual([
        {
          type: 'file_edited',
          file: { id: 'img', name: 'b.png', contentType: 'image/png', downloadURL: png.downloadURL },
          attributes: { name: { before: 'a.png', after: 'b.png' }, size: { before: 10, after: 12 } },
        },
      ]);
      expect(of('file_created')[0].file).toEqual({
        id: 'pdf',
        name: 'a.pdf',
        contentType: 'application/pdf',
        downloadURL: png.downloadURL,
      });
      expect(of('reusable_content_edited')).toEqual([
        {
          type: 'reusable_content_edited',
          reusableContent: { id: 'snippet', title: 'Snippet 2', document: expect.any(String) },
          attributes: {
            document: { before: expect.any(String), after: expect.any(String) },
            title: { before: 'Snippet', after: 'Snippet 2' },
          },
        },
      ]);
      expect(of('reusable_content_deleted')).toEqual([
        { type: 'reusable_content_deleted', reusableContent: { id: 'new', title: 'New' } },
      ]);
      expect(of('variables_edited')).toEqual([
        {
          type: 'variables_edited',
          variables: { edition: { after: 'pro' }, product: { before: 'Docs Hub', after: 'Docs Hub 2' } },
        },
      ]);
    });

    it('cuts at the limit, says how many more, and carries mergedFrom', () => {
      const all = presenter.semanticChanges(changes, undefined).changes as Json[];
      const body = presenter.semanticChanges(changes, 3, CHANGE_REQUEST);
      expect(responseProblem('getRevisionSemanticChanges', 200, body)).toBeUndefined();
      expect(body.changes).toEqual(all.slice(0, 3));
      expect(body.more).toBe(all.length - 3);
      expect(body.mergedFrom).toBe(CHANGE_REQUEST);
      expect(presenter.semanticChanges(changes, all.length)).not.toHaveProperty('more');
      expect(presenter.semanticChanges([], 10)).toEqual({ changes: [] });
    });
  });
});
