import { edit } from '@app/documents/tree/content.testing';
import { revisionLinks } from './links';
import { md, sampleRevision, target } from './links.testing';
import { isLinkStatus, linkStats, linksInPage, linkUsages, withStatus } from './listing';

const OPTIONS = { spaceId: 'space1', appUrls: ['https://hub.test/app'] };

async function sampleLinks() {
  const { store, root } = await sampleRevision();
  return revisionLinks(store, root, OPTIONS);
}

describe('link listings', () => {
  it('groups links by target and relation, each place once, in the order targets first appear', async () => {
    const usages = linkUsages(await sampleLinks());
    expect(usages).toHaveLength(22);
    const setup = usages[0];
    expect(setup).toMatchObject({
      target: { kind: 'page', page: 'setup' },
      status: 'ok',
      relation: 'reference',
    });
    // `@setup` and `@self` are one target: two paragraphs of intro, and the reusable content.
    expect(setup.locations).toEqual([
      { location: { kind: 'page', pageId: 'intro' }, blockKey: expect.any(String) },
      { location: { kind: 'page', pageId: 'intro' }, blockKey: expect.any(String) },
      { location: { kind: 'reusable-content', reusableContentId: 'r1' }, blockKey: expect.any(String) },
    ]);
    expect(setup.locations[0].blockKey).not.toBe(setup.locations[1].blockKey);
    const gone = usages.find((u) => target(u.target) === 'page:gone');
    expect(gone?.status).toBe('broken');
    expect(gone?.locations.map((l) => l.location)).toEqual([
      { kind: 'page', pageId: 'intro' },
      { kind: 'page', pageId: 'intro' },
      { kind: 'page', pageId: 'dead' },
    ]);
    // An image and a link to one file are two items: one depends on it, the other refers to it.
    expect(usages.filter((u) => target(u.target) === 'file:f1').map((u) => u.relation)).toEqual([
      'dependsOn',
      'reference',
    ]);
    // A cover and a file block of one page: one item, two places.
    expect(usages.find((u) => target(u.target) === 'file:f2')?.locations).toEqual([
      { location: { kind: 'page', pageId: 'setup' } },
      { location: { kind: 'page', pageId: 'setup' }, blockKey: 'fileblock' },
    ]);
  });

  it('lists a place once however often a block links to the target', async () => {
    const { store } = await sampleRevision();
    const root = await edit(store, null, async (e) => {
      await e.insertPage({
        id: 'p',
        type: 'document',
        title: 'P',
        slug: 'p',
        document: md('[a](https://x.test) [b](https://x.test)\n\n[c](https://x.test)'),
      });
    });
    const [usage, ...others] = linkUsages(await revisionLinks(store, root));
    expect(others).toEqual([]);
    expect(usage.locations).toHaveLength(2);
  });

  it("counts GitBook's stats: all items and the broken ones, before a status filter", async () => {
    const usages = linkUsages(await sampleLinks());
    expect(linkStats(usages)).toEqual({ total: 22, broken: { total: 7 } });
    expect(withStatus(usages, 'broken').map((u) => target(u.target))).toEqual([
      'page:gone',
      'anchor:setup#nope',
      'anchor:intro#elsewhere',
      'anchor:guides#x',
      'docs/page.md',
      'file:lost',
      'rc:r9',
    ]);
    expect(withStatus(usages, 'in-app').map((u) => target(u.target))).toEqual([
      'https://hub.test/app/o/1/s/2/page/x',
    ]);
    expect(withStatus(usages, 'ok')).toHaveLength(14);
    expect(withStatus(usages)).toEqual(usages);
    expect(linkStats([])).toEqual({ total: 0, broken: { total: 0 } });
  });

  it('counts the links a change request broke against the revision it started from', async () => {
    const { store, root } = await sampleRevision();
    const base = linkUsages(await revisionLinks(store, root, OPTIONS));
    // The change request deletes `setup`: links to it and to its anchor break; intro's others stay as they were.
    const changed = await edit(store, root, (e) => e.deletePage('setup'));
    const usages = linkUsages(await revisionLinks(store, changed, OPTIONS));
    expect(linkStats(usages, base)).toEqual({ total: 17, broken: { total: 8, changeRequest: 2 } });
  });

  it("lists one page's links, grouped, with their stats", async () => {
    const links = await sampleLinks();
    const setup = linksInPage(links, 'setup');
    expect(setup.map((l) => l.node)).toEqual([
      'cover',
      'link',
      'link',
      'file',
      'reusable-content',
      'reusable-content',
    ]);
    const usages = linkUsages(setup);
    expect(usages.map((u) => `${target(u.target)} ${u.relation} ${u.status}`)).toEqual([
      'file:f2 dependsOn ok',
      'page:intro reference ok',
      'file:f1 reference ok',
      'rc:r1 dependsOn ok',
      'rc:r9 dependsOn broken',
    ]);
    expect(linkStats(usages)).toEqual({ total: 5, broken: { total: 1 } });
    expect(linksInPage(links, 'guides')).toEqual([]);
    expect(linksInPage(links, 'r1')).toEqual([]);
  });

  it('tells a status query value', () => {
    expect(['ok', 'broken', 'in-app', 'OK', '', undefined, 1].map(isLinkStatus)).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
      false,
    ]);
  });
});
