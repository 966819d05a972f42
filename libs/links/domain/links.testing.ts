import type { ContentRef, Document } from '@app/documents/document/document';
import { markdownToDocument } from '@app/documents/document/from-markdown';
import { edit, newStore } from '@app/documents/tree/content.testing';
import type { JsonValue } from '@app/documents/tree/hash';
import type { RevisionLink } from './links';

/**
 * A document from Markdown whose `@name` URLs become the references `refs` names: Markdown only writes
 * URLs, and GitBook's other references are what the links under test point at.
 */
export function md(markdown: string, refs: Record<string, ContentRef> = {}, extra: JsonValue[] = []) {
  const { document } = markdownToDocument(markdown);
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    if (value === null || typeof value !== 'object') return;
    const node = value as { data?: { ref?: ContentRef }; nodes?: unknown; fragments?: unknown };
    const ref = node.data?.ref;
    if (ref?.kind === 'url' && ref.url.startsWith('@')) {
      const named = refs[ref.url];
      if (!named) throw new Error(`no reference named ${ref.url}`);
      (node.data as { ref: ContentRef }).ref = named;
    }
    visit(node.nodes);
    visit(node.fragments);
  };
  visit(document.nodes);
  return { ...document, nodes: [...document.nodes, ...extra] } as Document as unknown as JsonValue;
}

export const fileBlock = (key: string, file: string): JsonValue => ({
  object: 'block',
  type: 'file',
  key,
  isVoid: true,
  data: { ref: { kind: 'file', file }, caption: '' },
});

export const reusableBlock = (key: string, reusableContent: string): JsonValue => ({
  object: 'block',
  type: 'reusable-content',
  key,
  isVoid: true,
  data: { ref: { kind: 'reusable-content', reusableContent } },
});

const file = (id: string) => ({ id, name: `${id}.png`, contentType: 'image/png', downloadURL: '', size: 1 });

export const REFS: Record<string, ContentRef> = {
  '@setup': { kind: 'page', page: 'setup' },
  '@setup#install': { kind: 'anchor', page: 'setup', anchor: 'install' },
  '@setup#nope': { kind: 'anchor', page: 'setup', anchor: 'nope' },
  '@guides#x': { kind: 'anchor', page: 'guides', anchor: 'x' },
  '@gone': { kind: 'page', page: 'gone' },
  '@diagram': { kind: 'file', file: 'f1' },
  '@lost': { kind: 'file', file: 'lost' },
  '@other': { kind: 'page', page: 'p9', space: 'other-space' },
  '@self': { kind: 'page', page: 'setup', space: 'space1' },
  '@selfgone': { kind: 'page', page: 'gone', space: 'space1' },
  '@user': { kind: 'user', user: 'u1' },
};

/**
 * A revision with a link of every kind: pages `intro`, `guides` (group) > `setup`, link pages `home` and
 * `dead`; files `f1`, `f2`, `f3` (unreferenced); reusable contents `r1` and `r-empty`.
 */
export async function sampleRevision() {
  const store = newStore();
  const root = await edit(store, null, async (e) => {
    await e.putFile(file('f1'));
    await e.putFile(file('f2'));
    await e.putFile(file('f3'));
    await e.insertPage({
      id: 'intro',
      type: 'document',
      title: 'Intro',
      slug: 'intro',
      document: md(
        [
          '# Intro',
          'See [setup](@setup), [install](@setup#install), [nowhere](@gone) and [nope](@setup#nope).',
          'Here: [top](#intro), [away](#elsewhere), [group anchor](@guides#x).',
          '![Diagram](@diagram)',
          'Out: <https://example.com/a>, [relative](docs/page.md), [editor](https://hub.test/app/o/1/s/2/page/x), [site](https://hub.test/application).',
          'Spaces: [other](@other), [self](@self), [self gone](@selfgone); [lost](@lost); [who](@user).',
        ].join('\n\n'),
        REFS,
      ),
    });
    await e.insertPage({ id: 'guides', type: 'group', title: 'Guides', slug: 'guides' });
    await e.insertPage({
      id: 'setup',
      type: 'document',
      title: 'Setup',
      slug: 'setup',
      parent: 'guides',
      cover: { ref: { kind: 'file', file: 'f2' } },
      document: md(
        '## Install\n\nBack to [intro](@intro) and [diagram](@diagram).',
        {
          '@intro': { kind: 'page', page: 'intro' },
          ...REFS,
        },
        [fileBlock('fileblock', 'f2'), reusableBlock('reuse', 'r1'), reusableBlock('reuse-gone', 'r9')],
      ),
    });
    await e.insertPage({
      id: 'home',
      type: 'link',
      title: 'Home',
      target: { kind: 'url', url: 'https://example.com' },
    });
    await e.insertPage({ id: 'dead', type: 'link', title: 'Dead', target: { kind: 'page', page: 'gone' } });
    await e.putReusableContent({
      id: 'r1',
      title: 'Shared',
      document: md('Shared: [setup](@setup), [here](#somewhere), ![d](@diagram)', REFS),
    });
    await e.putReusableContent({ id: 'r-empty', title: 'Empty' });
  });
  return { store, root };
}

/** A link as one line: where, which node, the target, the status. */
export const line = (link: RevisionLink): string => {
  const where =
    link.location.kind === 'page' ? link.location.pageId : `rc:${link.location.reusableContentId}`;
  return `${where} ${link.node} ${target(link.target)} ${link.status}`;
};

export const target = (ref: ContentRef): string => {
  switch (ref.kind) {
    case 'url':
      return ref.url;
    case 'page':
      return `page:${ref.space ? `${ref.space}/` : ''}${ref.page}`;
    case 'anchor':
      return `anchor:${ref.page ?? ''}#${ref.anchor}`;
    case 'file':
      return `file:${ref.file}`;
    case 'reusable-content':
      return `rc:${ref.reusableContent}`;
    default:
      return ref.kind;
  }
};
