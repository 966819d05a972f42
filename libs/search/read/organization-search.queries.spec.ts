import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { collectionProjection } from '@app/collections/read/collection.projection';
import { viewedObjects } from '@app/content/content.api';
import { EMPTY_ROOT } from '@app/documents/tree/content';
import { Access, MEMBERS } from '@app/platform/auth/access';
import type { Config } from '@app/platform/config/config';
import type { EventStore } from '@app/platform/eventstore/event-store.port';
import { Urls } from '@app/platform/http/urls';
import { logReadsOf } from '@app/platform/projector/projection';
import type { ReadStore, Write } from '@app/platform/readstore/read-store.port';
import { SqliteReadStore } from '@app/platform/readstore/sqlite-read-store';
import { SPACES, spaceProjection } from '@app/spaces/read/space.projection';
import { MAX_READS, MAX_SPACES_SEARCHED, OrganizationSearchQueries } from './organization-search.queries';
import { SEARCH_INDEXES, SEARCH_PAGE_TERMS, SEARCH_PAGES, searchProjection } from './search.projection';
import { SearchQueries } from './search.queries';

const SPACE_COUNT = 260;
const viewer = { userId: 'admin', tokenId: 't', correlationId: 'c' };
const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString();

/** A space with one page holding `widget` in its title, edited at second `edited`. */
function space(id: string, title: string, edited: number, position: number): Write[] {
  const doc = {
    id,
    organization: 'o1',
    parent: null,
    title,
    deleted: false,
    position,
    root: EMPTY_ROOT,
    updatedAt: at(edited),
  };
  return [
    { collection: SPACES, id, doc },
    {
      collection: SEARCH_INDEXES,
      id,
      doc: { id, root: EMPTY_ROOT, language: 'en', pages: 1, totalLength: 3, position: 1 },
    },
    {
      collection: SEARCH_PAGE_TERMS,
      id: `${id}:p1`,
      doc: {
        id: `${id}:p1`,
        space: id,
        pageId: 'p1',
        length: 3,
        sectionIds: [],
        postings: ['widget', 1, 0, 0],
      },
    },
    {
      collection: SEARCH_PAGES,
      id: `${id}:p1`,
      doc: { id: `${id}:p1`, space: id, pageId: 'p1', title: 'Widget page', sections: [], length: 3 },
    },
  ];
}

describe('organization search bounds its work', () => {
  let dir: string;
  let views: SqliteReadStore;
  let reads = 0;
  let queries: OrganizationSearchQueries;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'organization-search-'));
    views = new SqliteReadStore({ path: join(dir, 'views.sqlite') });
    await views.ensureIndexes([
      ...spaceProjection.indexes,
      ...collectionProjection.indexes,
      ...searchProjection.indexes,
    ]);
    const writes: Write[] = [
      {
        collection: MEMBERS,
        id: 'o1:admin',
        doc: { id: 'o1:admin', organization: 'o1', userId: 'admin', role: 'admin', joinedAt: '' },
      },
      // The least recently edited space, whose title matches.
      ...space('handbook', 'Widget handbook', 0, 0),
    ];
    for (let i = 1; i <= SPACE_COUNT; i++) writes.push(...space(`s${i}`, `Space ${i}`, i, i));
    await views.commit(writes);
    // Reads of the search itself (the space search's too), apart from membership checks (cached by Access).
    const counted = new Proxy(views, {
      get(target, key) {
        const value = Reflect.get(target, key);
        if (key === 'get' || key === 'find') reads++;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    }) as ReadStore;
    const access = new Access(views);
    const urls = new Urls({ publicUrl: 'http://localhost' } as Config);
    // Search reads no content object (results come from the index), so the log is an empty one.
    const log = { readStream: async () => [] } as unknown as EventStore;
    const spaces = new SearchQueries(counted, access, viewedObjects(views, logReadsOf(log)), urls);
    queries = new OrganizationSearchQueries(counted, access, spaces, urls);
  });
  afterAll(async () => {
    await views.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('searches the pages of MAX_SPACES_SEARCHED spaces: title matches first, then the latest edited', async () => {
    reads = 0;
    const found = await queries.search('o1', { query: 'widget', limit: 1000 }, viewer);
    // Per space searched, its index document and its pages' postings (a space not yet in memory, whose
    // index document is read again, to tell whether it moved meanwhile), and the stored page of the result
    // each answers (all are shown here); and the lists of spaces and collections.
    expect(reads).toBe(2 + 4 * MAX_SPACES_SEARCHED);
    expect(found.count).toBe(MAX_SPACES_SEARCHED);
    const latest = Array.from({ length: MAX_SPACES_SEARCHED - 1 }, (_, i) => `s${SPACE_COUNT - i}`);
    expect(found.items.map((s) => s.id).sort()).toEqual(['handbook', ...latest].sort());
    expect(found.items[0]).toMatchObject({ id: 'handbook', pages: [{ id: 'p1', title: 'Widget page' }] });
  });

  it('a long query searches fewer spaces within MAX_READS reads', async () => {
    reads = 0;
    const query = 'widget alpha bravo charlie delta echo foxtrot golf hotel india';
    const found = await queries.search('o1', { query, limit: 0 }, viewer);
    const perSpace = 1 + 10;
    expect(found.count).toBe(Math.floor(MAX_READS / perSpace));
    expect(reads).toBeLessThanOrEqual(2 + MAX_READS);
    expect(found.items).toEqual([]);
    expect(found.next?.page).toEqual(expect.any(String));
  });
});
