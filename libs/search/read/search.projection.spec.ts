import { EMPTY_ROOT } from '@app/documents/tree/content';
import type { ProjectionScenario } from '@app/platform/projector/projection.testing';
import { postingOrder, terms, unpackPostings } from '../domain';
import { SEARCH_INDEXES, SEARCH_PAGE_TERMS, SEARCH_PAGES } from './search.projection';
import { created, languageSet, merged, search, spaceEvent, t, type Written, written } from './search.testing';

const PAGES: Array<[string, string, string]> = [
  ['p1', 'Les chevaux', 'Les chevaux lisent les journaux du matin.'],
  ['p2', 'Déploiement', 'Pour déployer, suivez le guide.'],
];

/** A space's postings and pages without the space in their ids, and its index's totals: what search serves. */
async function indexOf(scenario: ProjectionScenario, space: string) {
  const strip = <T extends { id: string; space: string }>({ id, space: _s, ...rest }: T) => ({
    ...rest,
    id: id.slice(space.length + 1),
  });
  // Each term's postings in the order queries read them: best first, then by page.
  const postings = (await scenario.documents(SEARCH_PAGE_TERMS))
    .filter((d) => d.space === space)
    .flatMap((d) => unpackPostings(d.postings, d.pageId, d.length, d.sectionIds))
    .map((posting) => ({ ...posting, order: postingOrder(posting) }))
    .sort(
      (a, b) =>
        (a.term < b.term ? -1 : a.term > b.term ? 1 : 0) ||
        a.order - b.order ||
        (a.pageId < b.pageId ? -1 : a.pageId > b.pageId ? 1 : 0),
    );
  const pages = (await scenario.documents(SEARCH_PAGES)).filter((p) => p.space === space);
  const index = (await scenario.documents(SEARCH_INDEXES)).find((i) => i.id === space);
  return {
    postings,
    pages: pages.map(strip),
    totals: index && { pages: index.pages, totalLength: index.totalLength, language: index.language },
  };
}

const termsOf = async (scenario: ProjectionScenario, space: string) =>
  new Set((await indexOf(scenario, space)).postings.map((p) => p.term));

/** Space s1 created, then `first` and `second` stored and merged in turn. */
const mergedInTurn = (first: Written, second: Written) =>
  search.given(
    created('s1'),
    first.stored,
    merged('s1', first.root),
    second.stored,
    merged('s1', second.root, 2),
  );

describe('search projection', () => {
  it('indexes a space without a language in English', async () => {
    const { root, stored } = await written('s1', null, PAGES);
    const scenario = search.given(created('s1'), stored, merged('s1', root));
    const found = await termsOf(scenario, 's1');
    expect(found).toContain('chevaux');
    expect(found).not.toContain('cheval');
    expect((await indexOf(scenario, 's1')).totals).toEqual({
      pages: 2,
      totalLength: expect.any(Number),
      language: 'en',
    });
    const [index] = await scenario.documents(SEARCH_INDEXES);
    expect(index).toMatchObject({ id: 's1', root, position: 3 });
  });

  it('indexes a space created in French in French, so French forms of a word find each other', async () => {
    const { root, stored } = await written('s1', null, PAGES);
    const scenario = search.given(created('s1', { language: 'fr' }), stored, merged('s1', root));
    const found = await termsOf(scenario, 's1');
    for (const query of ['cheval', 'journal', 'déploiements']) {
      for (const term of terms(query, 'fr')) expect(found).toContain(term);
    }
    expect(found).not.toContain('chevaux');
    expect((await indexOf(scenario, 's1')).totals?.language).toBe('fr');
  });

  it('keeps the language of a space created in it before it has any page', async () => {
    await search
      .given(created('s1', { language: 'fr' }))
      .thenDocuments(SEARCH_INDEXES, [
        { id: 's1', root: EMPTY_ROOT, language: 'fr', pages: 0, totalLength: 0, position: 1 },
      ]);
  });

  it('indexes every page again when the language changes: as if the space had always been in it', async () => {
    const { root, stored } = await written('s1', null, PAGES);
    const english = search.given(created('s1'), stored, merged('s1', root));
    const french = search.given(created('s1', { language: 'fr' }), stored, merged('s1', root));
    const changed = search.given(created('s1'), stored, merged('s1', root), languageSet('s1', 'fr'));
    expect(await indexOf(changed, 's1')).toEqual(await indexOf(french, 's1'));
    // The stop words differ: so do the pages' lengths, which ranking uses.
    expect((await indexOf(changed, 's1')).totals?.totalLength).not.toBe(
      (await indexOf(english, 's1')).totals?.totalLength,
    );
    const back = search.given(
      created('s1'),
      stored,
      merged('s1', root),
      languageSet('s1', 'fr'),
      languageSet('s1', 'en'),
    );
    expect(await indexOf(back, 's1')).toEqual(await indexOf(english, 's1'));
  });

  it("orders a term's postings best first, and takes a replaced page's postings out", async () => {
    const first = await written('s1', null, [
      ['p1', 'Horses', 'Horses read the morning papers.'],
      ['p2', 'Deploying', 'To deploy horses, follow the guide.'],
    ]);
    const second = await written('s1', first.root, [['p1', 'Cattle', 'Cattle read the evening papers.']]);
    const scenario = mergedInTurn(first, second);
    const { postings } = await indexOf(scenario, 's1');
    const horses = postings.filter((p) => p.term === 'hors');
    // In the title and the body of p1 before; in p2's body alone now.
    expect(horses.map((p) => p.pageId)).toEqual(['p2']);
    const papers = postings.filter((p) => p.term === 'paper');
    expect(papers.map((p) => p.pageId)).toEqual(['p1']);
    expect(postings.filter((p) => p.pageId === 'p1').map((p) => p.term)).toEqual(
      expect.arrayContaining(['cattl', 'even', 'paper']),
    );
    expect(postings.some((p) => p.pageId === 'p1' && ['hors', 'morn'].includes(p.term))).toBe(false);
    const guides = await written('s2', null, [
      ['a', 'Guide', 'deploy'],
      ['b', 'Deploy', 'Deploy and deploy again.'],
      ['c', 'Other', 'deploy deploy'],
    ]);
    const ranked = await indexOf(search.given(created('s2'), guides.stored, merged('s2', guides.root)), 's2');
    const [deploy] = terms('deploy', 'en');
    const deploys = ranked.postings.filter((p) => p.term === deploy);
    // The title hit first, then two body hits, then one.
    expect(deploys.map((p) => p.pageId)).toEqual(['b', 'c', 'a']);
    expect(deploys[0].order).toBeLessThan(deploys[1].order);
    expect(deploys[1].order).toBeLessThan(deploys[2].order);
  });

  it('writes again only the documents of the pages a merge changed', async () => {
    const first = await written('s1', null, [
      ['p1', 'Horses', 'Horses read the morning papers.'],
      ['p2', 'Cattle', 'Cattle read the evening papers.'],
    ]);
    const second = await written('s1', first.root, [['p1', 'Horses', 'Horses read the evening papers.']]);
    const scenario = mergedInTurn(first, second);
    const [firstMerge, secondMerge] = scenario.events
      .filter((e) => e.type === 'ChangeRequestMerged')
      .map((e) => e.position);
    for (const collection of [SEARCH_PAGE_TERMS, SEARCH_PAGES] as string[]) {
      const docs = await scenario.documents(collection, { withPos: true });
      expect(Object.fromEntries(docs.map((d) => [d.id, d._pos]))).toEqual({
        's1:p1': secondMerge,
        's1:p2': firstMerge,
      });
    }
    await scenario.thenReplayChangesNothing();
    await scenario.thenRebuildMatches();
  });

  it('indexes the merges after a change of language in the new language', async () => {
    const first = await written('s1', null, PAGES.slice(0, 1));
    const second = await written('s1', first.root, PAGES.slice(1));
    const changed = search.given(
      created('s1'),
      first.stored,
      merged('s1', first.root),
      languageSet('s1', 'fr'),
      second.stored,
      merged('s1', second.root, 2),
    );
    const french = search.given(
      created('s1', { language: 'fr' }),
      first.stored,
      second.stored,
      merged('s1', second.root),
    );
    expect(await indexOf(changed, 's1')).toEqual(await indexOf(french, 's1'));
  });

  it('starts a duplicate indexed with the content its first revision holds, in its language', async () => {
    const { root, stored } = await written('s1', null, PAGES);
    const scenario = search.given(
      created('s1', { language: 'fr' }),
      stored,
      merged('s1', root),
      created('s2', { language: 'fr', duplicatedFrom: 's1', root }),
    );
    expect(await indexOf(scenario, 's2')).toEqual(await indexOf(scenario, 's1'));
  });

  it('leaves the index alone when an update changes something else than the language', async () => {
    const { root, stored } = await written('s1', null, PAGES);
    const before = search.given(created('s1'), stored, merged('s1', root));
    const after = search.given(
      created('s1'),
      stored,
      merged('s1', root),
      spaceEvent('SpaceUpdated', { spaceId: 's1', changes: { title: 'X' }, updatedAt: t(8) }),
      languageSet('s1', 'en'),
    );
    expect(await after.documents(SEARCH_INDEXES, { withPos: true })).toEqual(
      await before.documents(SEARCH_INDEXES, { withPos: true }),
    );
  });

  it('takes a purged space out of the index', async () => {
    const { root, stored } = await written('s1', null, PAGES);
    const scenario = search.given(
      created('s1', { language: 'fr' }),
      stored,
      merged('s1', root),
      spaceEvent('SpacePurged', { spaceId: 's1', purgedAt: t(9) }),
    );
    await scenario.thenDocuments(SEARCH_PAGE_TERMS, []);
    await scenario.thenDocuments(SEARCH_PAGES, []);
    await scenario.thenDocuments(SEARCH_INDEXES, []);
  });

  it('changes nothing when the events are replayed, and a rebuild gives the same views', async () => {
    const first = await written('s1', null, PAGES.slice(0, 1));
    const second = await written('s1', first.root, PAGES.slice(1));
    const scenario = search.given(
      created('s1'),
      first.stored,
      merged('s1', first.root),
      languageSet('s1', 'fr'),
      created('s2', { duplicatedFrom: 's1', root: first.root, language: 'fr' }),
      second.stored,
      merged('s1', second.root, 2),
      languageSet('s2', 'de'),
      languageSet('s1', 'en'),
      created('s3', { language: 'fr' }),
      merged('s3', first.root),
      spaceEvent('SpacePurged', { spaceId: 's3', purgedAt: t(9) }),
    );
    expect((await indexOf(scenario, 's1')).totals?.language).toBe('en');
    expect((await indexOf(scenario, 's2')).totals?.language).toBe('de');
    await scenario.thenReplayChangesNothing();
    await scenario.thenRebuildMatches();
  });
});
