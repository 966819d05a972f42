import type { Space } from '@gitbook/api';
import { type DefaultTreeAdapterMap, parse } from 'parse5';
import { useTestApp } from '../support/app-harness';
import { describeIf } from '../support/describe-if';
import {
  type RendererBuild,
  type RunningRenderer,
  rendererBuild,
  runRenderer,
  sitePage,
} from '../support/gitbook-renderer';
import { importFixture } from '../support/gitsync';

type Node = DefaultTreeAdapterMap['node'];
type Element = DefaultTreeAdapterMap['element'];
type DocNode = { object?: string; type?: string; nodes?: DocNode[]; fragments?: DocNode[] };

const isElement = (node: Node): node is Element => 'tagName' in node;
const childrenOf = (node: Node): Node[] =>
  'content' in node && node.nodeName === 'template'
    ? (node as DefaultTreeAdapterMap['template']).content.childNodes
    : 'childNodes' in node
      ? node.childNodes
      : [];

/** Every element under `node` (scripts and styles left out: the markup a reader sees). */
function elements(node: Node, into: Element[] = []): Element[] {
  for (const child of childrenOf(node)) {
    if (!isElement(child) || child.tagName === 'script' || child.tagName === 'style') continue;
    into.push(child);
    elements(child, into);
  }
  return into;
}
const attr = (el: Element, name: string) => el.attrs.find((a) => a.name === name)?.value;
function textOf(node: Node): string {
  if (node.nodeName === '#text') return (node as DefaultTreeAdapterMap['textNode']).value;
  if (isElement(node) && (node.tagName === 'script' || node.tagName === 'style')) return '';
  return childrenOf(node).map(textOf).join('');
}
const squash = (text: string) => text.replace(/\s+/g, ' ').trim();
const classes = (el: Element) => (attr(el, 'class') ?? '').split(/\s+/);

const build = rendererBuild();

describeIf('app' in build, `GitBook renderer check: ${'missing' in build ? build.missing : ''}`)(
  "GitBook's renderer draws the blocks of pages written in GitBook's Markdown",
  () => {
    const current = useTestApp();
    let space: Space;
    let renderer: RunningRenderer | undefined;

    beforeAll(async () => {
      const app = current();
      space = (await app.api().orgs.createSpace(app.organizationId, { title: 'Rendered' })).data as Space;
      await importFixture(app, space.id);
      renderer = await runRenderer(build as RendererBuild, { url: app.url, token: app.token, space });
    }, 180_000);
    afterAll(() => renderer?.stop(), 30_000);

    /** The page at `path` as the renderer serves it, and the block types of its document in the app. */
    async function rendered(path: string) {
      const reply = await fetch(sitePage(path));
      expect(reply.status).toBe(200);
      const all = elements(parse(await reply.text()));
      const page = await current().http('GET', `/v1/spaces/${space.id}/content/path/${path}?format=document`);
      expect(page.status).toBe(200);
      const types = new Set<string>();
      const walk = (nodes?: DocNode[]) => {
        for (const node of nodes ?? []) {
          if (node.object === 'block' && node.type) types.add(node.type);
          walk(node.nodes);
          walk(node.fragments);
        }
      };
      walk((page.body as { document: { nodes: DocNode[] } }).document.nodes);
      return { all, types };
    }

    it('draws the hint, the tabs and the embed of a page (reference/blocks)', async () => {
      const { all, types } = await rendered('reference/blocks');
      expect([...types]).toEqual(expect.arrayContaining(['hint', 'tabs', 'tabs-item', 'embed']));

      const hint = all.find((el) => classes(el).includes('hint'));
      expect(hint && classes(hint)).toContain('bg-warning');
      expect(squash(textOf(hint as Element))).toContain('Read this first: see Install it.');

      const tabs = all.filter((el) => attr(el, 'role') === 'tab').map((el) => squash(textOf(el)));
      expect(tabs).toEqual(['macOS', 'Linux']);
      const panels = all.filter((el) => attr(el, 'role') === 'tabpanel').map((el) => squash(textOf(el)));
      expect(panels).toEqual(['Use Homebrew.', 'Use your package manager.']);

      const card = all.find(
        (el) => el.tagName === 'a' && attr(el, 'href') === 'https://github.com/GitbookIO/gitbook',
      );
      expect(card && squash(textOf(card))).toContain('github.com/GitbookIO/gitbook');
    });

    it('draws the figure, the expandable and the math of a page (reference/pending)', async () => {
      const { all, types } = await rendered('reference/pending');
      expect([...types]).toEqual(expect.arrayContaining(['images', 'image', 'expandable', 'math']));

      const png = (await current().api().spaces.listFiles(space.id)).data.items.find(
        (f) => f.name === 'logo image.png',
      );
      const image = all.find((el) => el.tagName === 'img' && attr(el, 'src') === png?.downloadURL);
      expect(image).toBeDefined();
      const caption = all.find((el) => el.tagName === 'figcaption');
      expect(caption && squash(textOf(caption))).toBe('The logo, in a figure');

      const details = all.find((el) => el.tagName === 'details');
      const summary = details && elements(details).find((el) => el.tagName === 'summary');
      expect(summary && squash(textOf(summary))).toBe('More details');
      expect(squash(textOf(details as Element))).toContain('Hidden until opened.');

      const katex = all.find((el) => classes(el).includes('katex-display'));
      const tex = katex && elements(katex).find((el) => el.tagName === 'annotation');
      expect(tex && textOf(tex)).toBe('E = mc^2');
    });

    it('got every answer it asked the app for but the links of a page to other sites', () => {
      const refused = (renderer as RunningRenderer).calls.filter((c) => c.status >= 400);
      // The meta links of a revision's page (`listRevisionPageMetaLinks`) come with published sites.
      expect(refused.filter((c) => !c.path.endsWith('/meta-links'))).toEqual([]);
    });
  },
);
