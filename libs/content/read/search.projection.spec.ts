import { type Projection, projection } from '@app/platform/projector/projection';
import {
  givenProjection,
  type ProjectionScenario,
  recorderOf,
} from '@app/platform/projector/projection.testing';
import { type SpaceEvent, spaceStream } from '@app/spaces/domain/space.decider';
import { type ContentObjectsEvent, contentObjectsStream } from '../domain/content-objects.decider';
import { terms } from '../domain/search';
import { type SpaceContentEvent, spaceContentStream } from '../domain/space-content.decider';
import { doc } from '../domain/tree/content.testing';
import { ContentEditor } from '../domain/tree/editor';
import type { Hash } from '../domain/tree/hash';
import { MemoryObjectStore } from '../domain/tree/objects';
import { getPage } from '../domain/tree/page-tree';
import { contentObjectProjection, EMPTY_ROOT, serializeObjects } from './content-objects';
import { SEARCH_INDEXES, SEARCH_PAGES, SEARCH_POSTINGS, searchProjection } from './search.projection';

const spaceEvent = recorderOf<SpaceEvent>();
const contentEvent = recorderOf<SpaceContentEvent>();
const objectsEvent = recorderOf<ContentObjectsEvent>();
const t = (day: number) => `2026-01-${String(day).padStart(2, '0')}T00:00:00.000Z`;

/** Search reads the content objects, which their own projection stores: both, as the projector runs them. */
const both = (...projections: Projection[]) =>
  projection(
    'search-and-objects',
    projections.flatMap((p) => p.indexes),
    Object.fromEntries(
      projections.flatMap((p) => p.handles.map((type) => [type, (e, ctx) => p.apply(e, ctx)] as const)),
    ),
    projections.flatMap((p) => p.collections),
  );
const search = givenProjection(both(contentObjectProjection, searchProjection));

const store = new MemoryObjectStore();

/** Pages written on `root` (replaced where they exist): the new root, and the event storing its objects in `space`. */
async function written(
  space: string,
  root: Hash | null,
  pages: Array<[id: string, title: string, text: string]>,
) {
  const editor = await ContentEditor.open(store, root);
  for (const [id, title, text] of pages) {
    const document = doc([`k-${id}`, text]);
    if (root !== null && (await getPage(store, root, id))) await editor.updatePage(id, { title, document });
    else await editor.insertPage({ id, type: 'document', title, slug: id, document });
  }
  const commit = editor.commit();
  store.add(commit.created);
  const stored = objectsEvent(
    'ContentObjectsStored',
    { spaceId: space, objects: serializeObjects(commit.created) },
    { stream: contentObjectsStream(space) },
  );
  return { root: commit.root, stored };
}

const created = (id: string, extra: Partial<Extract<SpaceEvent, { type: 'SpaceCreated' }>['data']> = {}) =>
  spaceEvent(
    'SpaceCreated',
    {
      id,
      organization: 'o1',
      parent: null,
      title: id,
      emoji: '',
      editMode: 'live',
      defaultLevel: 'inherit',
      visibility: 'private',
      revision: `rev-${id}`,
      position: 0,
      createdAt: t(1),
      ...extra,
    },
    { stream: spaceStream(id) },
  );
const merged = (space: string, root: Hash, n = 1) =>
  contentEvent(
    'ChangeRequestMerged',
    {
      spaceId: space,
      changeRequestId: `cr${n}`,
      revision: { id: `rev-${space}-${n}`, root },
      parents: [`rev-${space}`, `cr-rev-${n}`],
      previousStatus: 'open',
      mergedBy: 'u1',
      mergedAt: t(2 + n),
    },
    { stream: spaceContentStream(space) },
  );
const languageSet = (space: string, language: 'en' | 'fr' | 'de') =>
  spaceEvent(
    'SpaceUpdated',
    { spaceId: space, changes: { language }, updatedAt: t(8) },
    { stream: spaceStream(space) },
  );

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
  // A posting's id: space, term, impact (inverted), page.
  const postings = (await scenario.documents(SEARCH_POSTINGS)).flatMap(({ id, ...rest }) => {
    const [owner, term, rank] = id.split(':');
    return owner === space ? [{ ...rest, term, rank, id: id.slice(space.length + 1) }] : [];
  });
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

type Written = Awaited<ReturnType<typeof written>>;
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

  it("files a term's postings best first in id order, and takes a replaced page's postings out", async () => {
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
    // Id order: the title hit first, then two body hits, then one.
    expect(deploys.map((p) => p.pageId)).toEqual(['b', 'c', 'a']);
    expect([...deploys.map((p) => p.rank)].sort()).toEqual(deploys.map((p) => p.rank));
  });

  it("leaves an edited page's postings that stay the same where they are, and moves only the others", async () => {
    const first = await written('s1', null, [['p1', 'Horses', 'Horses read the morning papers.']]);
    // As long as before: the terms kept keep their impact, so their postings are the same documents.
    const second = await written('s1', first.root, [['p1', 'Horses', 'Horses read the evening papers.']]);
    const scenario = mergedInTurn(first, second);
    const postings = await scenario.documents(SEARCH_POSTINGS, { withPos: true });
    const writtenAt = Object.fromEntries(postings.map((p) => [p.id.split(':')[1], p._pos]));
    const [firstMerge, secondMerge] = scenario.events
      .filter((e) => e.type === 'ChangeRequestMerged')
      .map((e) => e.position);
    expect(writtenAt).toEqual({ hors: firstMerge, read: firstMerge, paper: firstMerge, even: secondMerge });
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
    await scenario.thenDocuments(SEARCH_POSTINGS, []);
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
