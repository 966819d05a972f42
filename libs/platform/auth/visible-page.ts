import type { Role } from '../domain/roles';
import { type ListQuery, pageQuery } from '../http/pagination';
import { FAN_OUT_LIMIT } from '../projector/projection';
import type { CollectionName, Doc, FindQuery, Page, ReadStore, Scalar } from '../readstore/read-store.port';
import type { Access, Viewer } from './access';

const before = (a: { value: Scalar; id: string }, b: { value: Scalar; id: string }) =>
  (a.value as string | number) < (b.value as string | number) || (a.value === b.value && a.id < b.id);

/**
 * A page of the spaces or collections of `organization` that `base` finds and the caller can reach, each
 * with the caller's effective role there. An organization admin reaches everything, paged by the store;
 * anyone else's list is read whole (up to FAN_OUT_LIMIT), filtered, then paged with the same cursors.
 */
export async function visiblePage<T extends Doc>(
  access: Access,
  views: ReadStore,
  collection: CollectionName<T>,
  organization: string,
  query: ListQuery,
  /** In ascending order (the cursor below compares that way). */
  base: Omit<FindQuery, 'limit' | 'after' | 'direction'> & { orderBy: string },
  viewer: Viewer,
): Promise<Page<{ doc: T; role: Role }>> {
  if ((await access.roleIn(organization, viewer.userId)) === 'admin') {
    const page = await views.find(collection, pageQuery(query, base));
    return { ...page, items: page.items.map((doc) => ({ doc, role: 'admin' as const })) };
  }
  const all = (await views.find(collection, { ...base, limit: FAN_OUT_LIMIT })).items;
  const roles = await access.contentRoles(
    all.map((doc) => doc.id),
    viewer,
  );
  const visible = all.flatMap((doc) => {
    const role = roles.get(doc.id);
    return role ? [{ doc, role }] : [];
  });
  const { after, limit } = pageQuery(query, base);
  const key = (doc: T) => ({ value: doc[base.orderBy] as Scalar, id: doc.id });
  const start = after ? visible.findIndex(({ doc }) => before(after, key(doc))) : 0;
  const from = start === -1 ? visible.length : start;
  const items = visible.slice(from, from + limit);
  const last = items.at(-1);
  const more = from + limit < visible.length;
  return { items, count: visible.length, ...(more && last ? { next: key(last.doc) } : {}) };
}
