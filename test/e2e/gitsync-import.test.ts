import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Space } from '@gitbook/api';
import { useTestApp } from '../support/app-harness';
import { GITSYNC_FIXTURE as FIXTURE, importFixture } from '../support/gitsync';
import { builtFile } from '../support/process-harness';

// Not in e2e-mongo: the CLI runs as a process of its own, which keeps its embedded views (as cli.test.ts).

const CLI = builtFile('apps', 'cli', 'src', 'main.js');

interface Page {
  id: string;
  type: string;
  title: string;
  path?: string;
  slug?: string;
  description?: string;
  icon?: string;
  hidden?: boolean;
  pages?: Page[];
}
interface ApiFile {
  id: string;
  name: string;
  contentType: string;
  size: number;
  downloadURL: string;
}
type Node = {
  object?: string;
  type?: string;
  data?: Record<string, unknown>;
  nodes?: Node[];
  fragments?: Node[];
};

/** SUMMARY.md's tree, as the space must have it: titles, paths (slugs from the file names), groups. */
const SUMMARY_TREE = [
  'Welcome (welcome)',
  'Getting started (getting-started)',
  '  Install it (getting-started/install)',
  '  First steps (getting-started/first-steps)',
  'Latest (latest)',
  '  Café (latest/café)',
  'Missing page (missing)',
  '[group] Reference (reference)',
  '  Blocks (reference/blocks)',
  '  Pending blocks (reference/pending)',
  '    Deep page (reference/pending/page)',
];

/** The fixture's deliberate problems; the constructs a branch being merged makes blocks are added when still text. */
const DELIBERATE = [
  'SUMMARY.md: names missing.md, which is not in the repository (imported as an empty page)',
  '.gitbook.yaml: the redirect old/start → getting-started/README.md is not imported (spaces here have no redirects)',
  "getting-started/README.md: links to ../outside.md, a page outside SUMMARY.md's tree (left as a URL)",
  'getting-started/install.md: links to ../.gitbook/assets/gone.png, an asset missing from the repository (left as a URL)',
  'reference/blocks.md: {% unknown-tag %} left as text',
];
const PENDING = ['<figure>', '<details>', '$$ math', '<mark>', 'button'].map(
  (c) => `reference/pending.md: ${c} left as text`,
);

const flatten = (pages: Page[]): Page[] => pages.flatMap((p) => [p, ...flatten(p.pages ?? [])]);
const outline = (pages: Page[], depth = 0): string[] =>
  pages.flatMap((p) => [
    `${'  '.repeat(depth)}${p.type === 'group' ? '[group] ' : ''}${p.title} (${p.path})`,
    ...outline(p.pages ?? [], depth + 1),
  ]);

function blockTypes(nodes: Node[] | undefined, into = new Set<string>()): Set<string> {
  for (const node of nodes ?? []) {
    if (node.object === 'block') into.add(node.type as string);
    blockTypes(node.nodes, into);
    blockTypes(node.fragments, into);
  }
  return into;
}

function refs(nodes: Node[] | undefined, into: unknown[] = []): unknown[] {
  for (const node of nodes ?? []) {
    if (node.data && typeof node.data.ref === 'object') into.push(node.data.ref);
    refs(node.nodes, into);
    refs(node.fragments, into);
  }
  return into;
}

/** The data of the blocks of a type, in document order. */
function dataOfBlocks(nodes: Node[] | undefined, type: string, into: unknown[] = []): unknown[] {
  for (const node of nodes ?? []) {
    if (node.object === 'block' && node.type === type) into.push(node.data);
    dataOfBlocks(node.nodes, type, into);
    dataOfBlocks(node.fragments, type, into);
  }
  return into;
}

const withoutKeys = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(withoutKeys)
    : value !== null && typeof value === 'object'
      ? Object.fromEntries(
          Object.entries(value).flatMap(([k, v]) => (k === 'key' ? [] : [[k, withoutKeys(v)]])),
        )
      : value;

describe('import:gitsync beside a running server', () => {
  const current = useTestApp();

  const cli = async (...args: string[]) => {
    const { DATA_DIR: _d, MONGO_URL: _m, ...env } = process.env;
    // Not spawnSync: the server runs in this process, and must go on serving while the command waits on it.
    return promisify(execFile)(process.execPath, [CLI, ...args], {
      env: { ...env, DATA_DIR: current().dataDir, PUBLIC_URL: 'http://docs.test' },
      encoding: 'utf8',
    });
  };

  async function get<T>(path: string): Promise<T> {
    const reply = await current().http('GET', path);
    expect(reply.status).toBe(200);
    return reply.body as T;
  }
  const newSpace = async (title: string) =>
    ((await current().api().orgs.createSpace(current().organizationId, { title })).data as Space).id;
  const contentOf = (space: string) =>
    get<{ pages: Page[]; files: ApiFile[] }>(`/v1/spaces/${space}/content`);
  const documentOf = async (space: string, page: string) =>
    (await get<{ document?: { nodes: Node[] } }>(`/v1/spaces/${space}/content/page/${page}?format=document`))
      .document;
  const markdownOf = async (space: string, page: string, cr?: string) =>
    (
      await get<{ markdown: string }>(
        `/v1/spaces/${space}${cr ? `/change-requests/${cr}` : ''}/content/page/${page}?format=markdown`,
      )
    ).markdown;

  /** The fixture imported by the built CLI; its output. */
  let imported: { space: string; stdout: string; stderr: string } | undefined;
  async function importedSpace() {
    if (!imported) {
      const space = await newSpace('Imported');
      const { stdout, stderr } = await cli(
        'import:gitsync',
        FIXTURE,
        '--space',
        space,
        '--subject',
        'From Git',
      );
      imported = { space, stdout, stderr };
    }
    return imported;
  }

  it("gives SUMMARY.md's tree, titles and order, and reports exactly the fixture's problems", async () => {
    const { space, stdout } = await importedSpace();
    expect(stdout).toMatch(
      /^imported 11 pages and 4 files into space \S+ in 5 batches: change request \S+, merged/m,
    );
    const report = stdout
      .split('\n')
      .filter((line) => line.startsWith('  '))
      .map((line) => line.slice(2));
    const pending = PENDING.filter((line) => report.includes(line));
    expect(report).toEqual([...DELIBERATE, ...pending]);
    expect(stdout).toContain(`not converted (${DELIBERATE.length + pending.length}):`);
    const { pages } = await contentOf(space);
    expect(outline(pages)).toEqual(SUMMARY_TREE);

    const changeRequests = await get<{ items: { subject: string; status: string }[] }>(
      `/v1/spaces/${space}/change-requests?status=merged`,
    );
    expect(changeRequests.items).toEqual([
      expect.objectContaining({ subject: 'From Git', status: 'merged' }),
    ]);
  });

  it("keeps the frontmatter's fields and other keys", async () => {
    const { space } = await importedSpace();
    const byPath = new Map(flatten((await contentOf(space)).pages).map((p) => [p.path, p]));
    expect(byPath.get('welcome')).toMatchObject({
      description: 'Everything about the product, imported from Git Sync.',
      icon: 'house',
    });
    expect(byPath.get('getting-started/install')).toMatchObject({
      hidden: true,
      description: 'How to install it.',
    });
    const blocks = byPath.get('reference/blocks') as Page;
    expect(await markdownOf(space, blocks.id)).toMatch(/^---\nowner: docs-team\n---\n/);
  });

  it("holds the assets as files, and each page's GitBook blocks, links to pages and files resolved", async () => {
    const { space } = await importedSpace();
    const { pages, files } = await contentOf(space);
    const assets = join(FIXTURE, 'docs', '.gitbook', 'assets');
    expect(files.map((f) => [f.name, f.contentType, f.size]).sort()).toEqual([
      ['guide.pdf', 'application/pdf', readFileSync(join(assets, 'guide.pdf')).length],
      ['logo image.png', 'image/png', readFileSync(join(assets, 'logo image.png')).length],
      ['notes.txt', 'text/plain', readFileSync(join(assets, 'notes.txt')).length],
      ['petstore.yaml', 'application/yaml', readFileSync(join(assets, 'petstore.yaml')).length],
    ]);
    const png = files.find((f) => f.name === 'logo image.png') as ApiFile;
    const download = await fetch(`${current().url}${new URL(png.downloadURL).pathname}`);
    expect(Buffer.from(await download.arrayBuffer())).toEqual(readFileSync(join(assets, 'logo image.png')));

    const id = new Map(flatten(pages).map((p) => [p.path, p.id]));
    const file = new Map(files.map((f) => [f.name, f.id]));
    const blocks = await documentOf(space, id.get('reference/blocks') as string);
    for (const type of [
      'hint',
      'tabs',
      'embed',
      'content-ref',
      'code',
      'file',
      'swagger',
      'stepper',
      'columns',
    ])
      expect(blockTypes(blocks?.nodes)).toContain(type);
    expect(refs(blocks?.nodes)).toEqual(
      expect.arrayContaining([
        { kind: 'page', page: id.get('getting-started/install') },
        { kind: 'page', page: id.get('reference/pending/page') },
        { kind: 'file', file: file.get('guide.pdf') },
      ]),
    );
    // The attributes GitBook's data has a field for, as GitBook's schema has them.
    expect(dataOfBlocks(blocks?.nodes, 'hint')).toEqual([{ style: 'warning', icon: 'triangle-exclamation' }]);
    expect(dataOfBlocks(blocks?.nodes, 'embed')).toEqual([
      { url: 'https://github.com/GitbookIO/gitbook', fullWidth: true },
    ]);
    expect(dataOfBlocks(blocks?.nodes, 'column')).toEqual([
      { width: { value: 66.66666666666667, unit: '%' }, verticalAlignment: 'middle' },
      { width: { value: 33.33333333333333, unit: '%' } },
    ]);
    const cafe = await documentOf(space, id.get('latest/café') as string);
    expect([...blockTypes(cafe?.nodes)]).toEqual(expect.arrayContaining(['tabs', 'embed']));
    const steps = await documentOf(space, id.get('getting-started/first-steps') as string);
    expect(blockTypes(steps?.nodes)).toContain('stepper');
    expect(refs(steps?.nodes)).toContainEqual({ kind: 'page', page: id.get('latest/café') });

    const welcome = await documentOf(space, id.get('welcome') as string);
    expect(refs(welcome?.nodes)).toEqual([
      { kind: 'page', page: id.get('getting-started/install') },
      { kind: 'anchor', page: id.get('reference/blocks'), anchor: 'hints' },
      { kind: 'file', file: file.get('logo image.png') },
    ]);
    const deep = await documentOf(space, id.get('reference/pending/page') as string);
    expect(refs(deep?.nodes)).toEqual([
      { kind: 'page', page: id.get('welcome') },
      { kind: 'file', file: file.get('notes.txt') },
    ]);
    // What was reported stays a URL.
    const start = await documentOf(space, id.get('getting-started') as string);
    expect(refs(start?.nodes)).toContainEqual({ kind: 'url', url: '../outside.md' });
  });

  it('reads back as Markdown that a second round trip keeps as it is', async () => {
    const { space } = await importedSpace();
    const pages = flatten((await contentOf(space)).pages).filter((p) => p.type === 'document');
    const first = new Map<string, string>();
    for (const page of pages) first.set(page.id, await markdownOf(space, page.id));
    const cr = (await current().api().spaces.createChangeRequest(space, { subject: 'Round trip' })).data.id;
    const changes = pages.map((p) => ({
      operation: 'update_page',
      page: p.id,
      document: { markdown: first.get(p.id) },
    }));
    const reply = await current().http('POST', `/v1/spaces/${space}/change-requests/${cr}/content`, {
      body: { changes },
    });
    expect(reply.status).toBe(200);
    for (const page of pages) expect(await markdownOf(space, page.id, cr)).toBe(first.get(page.id));
  });

  it('gives the same space content as the same import sent through the API', async () => {
    const { space } = await importedSpace();
    const app = current();
    const other = await newSpace('Through the API');
    await importFixture(app, other);
    expect(await canonicalContent(other)).toEqual(await canonicalContent(space));
  });

  /** A space's pages (fields, Markdown, document) and files, page and file ids replaced by paths and names. */
  async function canonicalContent(space: string) {
    const { pages, files } = await contentOf(space);
    const all = flatten(pages);
    const names: [string, string][] = [
      ...all.map((p) => [p.id, `<page ${p.path}>`] as [string, string]),
      ...files.map((f) => [f.id, `<file ${f.name}>`] as [string, string]),
    ];
    const canonical = (text: string) => names.reduce((out, [id, name]) => out.split(id).join(name), text);
    const out: unknown[] = [
      outline(pages),
      files.map((f) => [f.name, f.contentType, f.size, f.downloadURL]).sort(),
    ];
    for (const page of all) {
      const { id: _i, pages: _p, ...fields } = page as Page & Record<string, unknown>;
      const { documentId: _d, urls: _u, createdAt: _c, updatedAt: _up, ...kept } = fields;
      const markdown = page.type === 'document' ? await markdownOf(space, page.id) : '';
      const document = page.type === 'document' ? await documentOf(space, page.id) : undefined;
      // Node keys hash their content, page and file ids included: they differ as the ids do.
      out.push(withoutKeys(JSON.parse(canonical(JSON.stringify({ kept, markdown, document })))));
    }
    return out;
  }
});
