import type { DefaultLevel } from '@app/platform/domain/roles';
import { documents, projection } from '@app/platform/projector/projection';
import { collectionName, type Doc } from '@app/platform/readstore/read-store.port';
import type { CollectionEvent } from '../domain/collection.decider';

export interface CollectionDoc extends Doc {
  organization: string;
  parent: string | null;
  title: string;
  description: string | null;
  defaultLevel: DefaultLevel;
  position: number;
  createdAt: string;
  updatedAt: string;
  /** Revision of the collection's stream: its ETag. */
  streamRevision: number;
}

export const COLLECTIONS = collectionName<CollectionDoc>('collections');

const collections = documents(COLLECTIONS);

/**
 * Collections. A transfer also moves the collections below the collection to the new organization, and
 * a deletion hands the collection's children to its parent, so nothing it held is lost (the spaces'
 * projection does the same for the spaces it held).
 */
export const collectionProjection = projection<CollectionEvent>(
  'collections',
  [
    { collection: COLLECTIONS, fields: ['organization', 'position'] },
    { collection: COLLECTIONS, fields: ['organization', 'parent', 'position'] },
    { collection: COLLECTIONS, fields: ['parent'] },
  ],
  {
    CollectionCreated: collections.put((e) => {
      const { id, organization, parent, title, description, defaultLevel, position, createdAt } = e.data;
      return {
        id,
        organization,
        parent,
        title,
        description,
        defaultLevel,
        position,
        createdAt,
        updatedAt: createdAt,
        streamRevision: e.revision,
      };
    }),
    CollectionUpdated: collections.update(
      (e) => e.data.collectionId,
      (doc, e) => ({ ...doc, ...e.data.changes, updatedAt: e.data.updatedAt, streamRevision: e.revision }),
    ),
    CollectionMoved: collections.update(
      (e) => e.data.collectionId,
      (doc, e) => ({
        ...doc,
        parent: e.data.parent,
        position: e.data.position,
        updatedAt: e.data.movedAt,
        streamRevision: e.revision,
      }),
    ),
    CollectionTransferred: async (e, ctx) => {
      const { collectionId, organization, position, contents, transferredAt } = e.data;
      await collections.change(ctx, collectionId, (doc) => ({
        ...doc,
        organization,
        parent: null,
        position,
        updatedAt: transferredAt,
        streamRevision: e.revision,
      }));
      for (const id of contents.collections) {
        await collections.change(ctx, id, (child) => ({
          ...child,
          organization,
          updatedAt: transferredAt,
        }));
      }
    },
    CollectionDeleted: async (e, ctx) => {
      const { collectionId, parent, deletedAt } = e.data;
      await ctx.delete(COLLECTIONS, collectionId);
      for (const child of await ctx.find(COLLECTIONS, { parent: collectionId })) {
        await ctx.put(COLLECTIONS, { ...child, parent, updatedAt: deletedAt });
      }
    },
  },
);
