import type { ContentRef } from '@app/documents/document/document';
import { edit, newStore } from '@app/documents/tree/content.testing';
import type { JsonValue } from '@app/documents/tree/hash';
import { fileBacklinks, type LinkOptions, type RevisionLink, revisionLinks } from './links';
import { line, md, sampleRevision } from './links.testing';

const OPTIONS = { spaceId: 'space1', appUrls: ['https://hub.test/app/'] };

/** The links of a revision of one page, whose body is `markdown`. */
async function single(
  markdown: string,
  refs: Record<string, ContentRef>,
  options: LinkOptions = {},
  extra: JsonValue[] = [],
) {
  const store = newStore();
  const document = md(markdown, refs, extra);
  const root = await edit(store, null, (e) =>
    e.insertPage({ id: 'p', type: 'document', title: 'P', slug: 'p', document }),
  );
  return revisionLinks(store, root, options);
}

describe('revisionLinks', () => {
  it('lists every link in page order then document order, reusable contents last, each with its status', async () => {
    const { store, root } = await sampleRevision();
    expect((await revisionLinks(store, root, OPTIONS)).map(line)).toEqual([
      'intro link page:setup ok',
      'intro link anchor:setup#install ok',
      'intro link page:gone broken',
      'intro link anchor:setup#nope broken',
      'intro link #intro ok',
      'intro link #elsewhere broken',
      // A group has no body, so no anchor.
      'intro link anchor:guides#x broken',
      'intro image file:f1 ok',
      'intro link https://example.com/a ok',
      // Not an absolute URL: it leads nowhere.
      'intro link docs/page.md broken',
      'intro link https://hub.test/app/o/1/s/2/page/x in-app',
      // Same origin, but not under the app's path.
      'intro link https://hub.test/application ok',
      'intro link page:other-space/p9 ok',
      'intro link page:space1/setup ok',
      'intro link page:space1/gone broken',
      'intro link file:lost broken',
      'intro link user ok',
      'setup cover file:f2 ok',
      'setup link page:intro ok',
      'setup link file:f1 ok',
      'setup file file:f2 ok',
      'setup reusable-content rc:r1 ok',
      'setup reusable-content rc:r9 broken',
      'home link-page https://example.com ok',
      'dead link-page page:gone broken',
      'rc:r1 link page:setup ok',
      // The page of a reusable content's `#anchor` is wherever it is included: not judged.
      'rc:r1 link #somewhere ok',
      'rc:r1 inline-image file:f1 ok',
    ]);
  });

  it('resolves targets so that equal targets share a key', async () => {
    const { store, root } = await sampleRevision();
    const links = await revisionLinks(store, root, OPTIONS);
    const at = (url: string) => links.find((l) => line(l).includes(` ${url} `)) as RevisionLink;
    expect(at('#intro').resolved).toEqual({ kind: 'anchor', page: 'intro', anchor: 'intro' });
    expect(at('#intro').target).toEqual({ kind: 'url', url: '#intro' });
    expect(at('page:space1/setup').resolved).toEqual({ kind: 'page', page: 'setup' });
    expect(at('page:space1/setup').key).toBe(at('page:setup').key);
    expect(at('page:other-space/p9').resolved).toEqual({ kind: 'page', page: 'p9', space: 'other-space' });
    expect(at('#somewhere').resolved).toEqual({ kind: 'url', url: '#somewhere' });
  });

  it('says where each link is: its innermost block, and how it relates to its target', async () => {
    const { store, root } = await sampleRevision();
    const links = await revisionLinks(store, root, OPTIONS);
    const intro = links.filter((l) => l.location.kind === 'page' && l.location.pageId === 'intro');
    // The first paragraph's four links share its key; the image is a block of its own.
    expect(new Set(intro.slice(0, 4).map((l) => l.blockKey)).size).toBe(1);
    expect(intro[4].blockKey).not.toBe(intro[0].blockKey);
    expect(intro[7]).toMatchObject({ node: 'image', relation: 'dependsOn' });
    expect(intro[7].blockKey).toEqual(expect.any(String));
    expect(intro[7].blockKey).not.toBe(intro[4].blockKey);
    const setup = links.filter((l) => l.location.kind === 'page' && l.location.pageId === 'setup');
    expect(setup.map((l) => [l.node, l.blockKey, l.relation])).toEqual([
      ['cover', undefined, 'dependsOn'],
      ['link', expect.any(String), 'reference'],
      ['link', expect.any(String), 'reference'],
      ['file', 'fileblock', 'dependsOn'],
      ['reusable-content', 'reuse', 'dependsOn'],
      ['reusable-content', 'reuse-gone', 'dependsOn'],
    ]);
    const home = links.find((l) => l.node === 'link-page') as RevisionLink;
    expect(home).toEqual({
      location: { kind: 'page', pageId: 'home' },
      node: 'link-page',
      target: { kind: 'url', url: 'https://example.com' },
      resolved: { kind: 'url', url: 'https://example.com' },
      key: '{"kind":"url","url":"https://example.com"}',
      status: 'ok',
      relation: 'reference',
    });
    expect(links.at(-1)?.location).toEqual({ kind: 'reusable-content', reusableContentId: 'r1' });
  });

  it('judges no app URL without app URLs, and no reference naming a space without this space id', async () => {
    const { store, root } = await sampleRevision();
    const lines = (await revisionLinks(store, root)).map(line);
    expect(lines).toContain('intro link https://hub.test/app/o/1/s/2/page/x ok');
    expect(lines).toContain('intro link page:space1/gone ok');
    expect(lines).toContain('intro link page:gone broken');
  });

  it('follows the page order of the revision, and is the same on every read', async () => {
    const { store, root } = await sampleRevision();
    const next = await edit(store, root, async (e) => {
      await e.insertPage({
        id: 'first',
        type: 'document',
        title: 'First',
        slug: 'first',
        index: 0,
        document: md('[Intro](@intro) and [setup anchor](@install)', {
          '@intro': { kind: 'page', page: 'intro' },
          '@install': { kind: 'anchor', page: 'setup', anchor: 'install' },
        }),
      });
      await e.deletePage('setup');
    });
    const links = (await revisionLinks(store, next, OPTIONS)).map(line);
    expect(links.slice(0, 3)).toEqual([
      'first link page:intro ok',
      // The page is gone, and so are its anchors.
      'first link anchor:setup#install broken',
      'intro link page:setup broken',
    ]);
    expect(links.some((l) => l.startsWith('setup '))).toBe(false);
    expect((await revisionLinks(store, next, OPTIONS)).map(line)).toEqual(links);
  });

  it('finds an anchor by a heading id, by a block id, and percent-encoded', async () => {
    const heading = {
      object: 'block',
      type: 'heading-2',
      key: 'h',
      data: { id: 'custom-id' },
      nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Named', marks: [] }] }],
    };
    const tabs = { object: 'block', type: 'expandable', key: 'x', data: { id: 'block-id' }, nodes: [] };
    const links = await single(
      '# Héllo wörld\n\n[a](#custom-id) [b](#block-id) [c](#named) [d](#h%C3%A9llo-w%C3%B6rld)',
      {},
      {},
      [heading, tabs],
    );
    expect(links.map(line)).toEqual([
      'p link #custom-id ok',
      'p link #block-id ok',
      // The heading's id replaces its slug.
      'p link #named broken',
      'p link #h%C3%A9llo-w%C3%B6rld ok',
    ]);
  });

  it('judges URLs without a request: malformed ones are broken, those under the app in-app', async () => {
    const urls = [
      'https://example.com',
      'mailto:team@example.com',
      'http://',
      '',
      '/pages/x',
      'HTTPS://HUB.TEST/app',
      'https://hub.test/app/o/1?x=1',
      'https://hub.test/apps',
      'http://hub.test/app/x',
    ];
    const refs = Object.fromEntries(urls.map((url, i) => [`@u${i}`, { kind: 'url', url } as const]));
    const links = await single(urls.map((_, i) => `[${i}](@u${i})`).join(' '), refs, OPTIONS);
    expect(links.map((l) => `${l.target.kind === 'url' && l.target.url} ${l.status}`)).toEqual([
      'https://example.com ok',
      'mailto:team@example.com ok',
      'http:// broken',
      ' broken',
      '/pages/x broken',
      'HTTPS://HUB.TEST/app in-app',
      'https://hub.test/app/o/1?x=1 in-app',
      'https://hub.test/apps ok',
      // Another origin.
      'http://hub.test/app/x ok',
    ]);
  });

  it('leaves alone what lives outside the revision: spaces, users, collections, tags, OpenAPI specs', async () => {
    const refs: Record<string, ContentRef> = {
      '@this': { kind: 'space', space: 'space1' },
      '@that': { kind: 'space', space: 'space2' },
      '@user': { kind: 'user', user: 'u' },
      '@collection': { kind: 'collection', collection: 'c' },
      '@tag': { kind: 'tag', tag: 'v1' },
      '@spec': { kind: 'openapi', spec: 'petstore' },
      '@elsewhere': { kind: 'reusable-content', reusableContent: 'r', space: 'space2' },
    };
    const links = await single(
      Object.keys(refs)
        .map((name) => `[x](${name})`)
        .join(' '),
      refs,
      OPTIONS,
    );
    expect(links.map((l) => [l.resolved, l.status])).toEqual(Object.values(refs).map((ref) => [ref, 'ok']));
  });

  it('has no links in empty content', async () => {
    const store = newStore();
    expect(await revisionLinks(store, await edit(store, null, async () => undefined))).toEqual([]);
  });
});

describe('fileBacklinks', () => {
  it('lists each page and reusable content referencing a file once, in revision order', async () => {
    const { store, root } = await sampleRevision();
    const f1 = await fileBacklinks(store, root, 'f1');
    expect(f1.map((b) => [b.location, b.node])).toEqual([
      [{ kind: 'page', pageId: 'intro' }, 'image'],
      [{ kind: 'page', pageId: 'setup' }, 'link'],
      [{ kind: 'reusable-content', reusableContentId: 'r1' }, 'inline-image'],
    ]);
    expect(f1[0].blockKey).toEqual(expect.any(String));
    // The cover comes first; the file block is the same page.
    expect(await fileBacklinks(store, root, 'f2')).toEqual([
      { location: { kind: 'page', pageId: 'setup' }, node: 'cover' },
    ]);
    expect(await fileBacklinks(store, root, 'f3')).toEqual([]);
    expect(await fileBacklinks(store, root, 'lost')).toEqual([
      { location: { kind: 'page', pageId: 'intro' }, blockKey: expect.any(String), node: 'link' },
    ]);
  });

  it("counts a reference naming this space, not another space's file of the same id", async () => {
    const { store } = await sampleRevision();
    const root = await edit(store, null, async (e) => {
      await e.putFile({ id: 'f1', name: 'f1.png', contentType: 'image/png', downloadURL: '', size: 1 });
      await e.insertPage({
        id: 'a',
        type: 'document',
        title: 'A',
        slug: 'a',
        document: md('[x](@there)', { '@there': { kind: 'file', file: 'f1', space: 'other' } }),
      });
      await e.insertPage({
        id: 'b',
        type: 'document',
        title: 'B',
        slug: 'b',
        document: md('[x](@here)', { '@here': { kind: 'file', file: 'f1', space: 'space1' } }),
      });
    });
    expect(await fileBacklinks(store, root, 'f1', { spaceId: 'space1' })).toEqual([
      { location: { kind: 'page', pageId: 'b' }, blockKey: expect.any(String), node: 'link' },
    ]);
    expect(await fileBacklinks(store, root, 'f1')).toEqual([]);
  });
});
