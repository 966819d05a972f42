import { encodePage } from '../http/pagination';
import type { Doc, FindQuery, Page, ReadStore } from '../readstore/read-store.port';
import type { Access, Viewer } from './access';
import { visiblePage } from './visible-page';

const docs: Doc[] = [1, 2, 3, 4, 5, 6].map((n) => ({ id: `s${n}`, position: n * 10 }));
const views = {
  async find(_collection: string, query: FindQuery): Promise<Page<Doc>> {
    const after = query.after;
    const rest = after ? docs.filter((d) => (d.position as number) > (after.value as number)) : docs;
    const items = rest.slice(0, query.limit);
    const last = items.at(-1);
    const next =
      rest.length > query.limit && last ? { value: last.position as number, id: last.id } : undefined;
    return { items, count: docs.length, ...(next ? { next } : {}) };
  },
} as unknown as ReadStore;
const viewer: Viewer = { userId: 'u1', tokenId: 't1', correlationId: 'c1' };
/** The caller reaches s2, s3 and s5 (as `read`), or everything as an organization admin. */
const accessAs = (role: 'admin' | 'read') =>
  ({
    roleIn: async () => role,
    contentRoles: async (ids: string[]) =>
      new Map(ids.filter((id) => ['s2', 's3', 's5'].includes(id)).map((id) => [id, 'read' as const])),
  }) as unknown as Access;
const base = { where: { organization: 'o1' }, orderBy: 'position' };

describe('visiblePage', () => {
  it('pages what a member reaches, with cursors that carry on after the last item shown', async () => {
    const first = await visiblePage(accessAs('read'), views, 'spaces', 'o1', { limit: 2 }, base, viewer);
    expect(first.items.map((i) => i.doc.id)).toEqual(['s2', 's3']);
    expect(first.count).toBe(3);
    const page = encodePage(first.next as { value: number; id: string });
    const second = await visiblePage(
      accessAs('read'),
      views,
      'spaces',
      'o1',
      { limit: 2, page },
      base,
      viewer,
    );
    expect(second.items.map((i) => [i.doc.id, i.role])).toEqual([['s5', 'read']]);
    expect(second.next).toBeUndefined();
  });

  it("pages an organization admin's list in the store, every item as admin", async () => {
    const all = await visiblePage(accessAs('admin'), views, 'spaces', 'o1', { limit: 4 }, base, viewer);
    expect(all.items.map((i) => [i.doc.id, i.role])).toEqual([
      ['s1', 'admin'],
      ['s2', 'admin'],
      ['s3', 'admin'],
      ['s4', 'admin'],
    ]);
    expect(all.count).toBe(6);
  });
});
