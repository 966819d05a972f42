import type { DefaultLevel } from '@app/platform/domain/roles';
import { projection } from '@app/platform/projector/projection';
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
    CollectionCreated: async (e, ctx) => {
      const { id, organization, parent, title, description, defaultLevel, position, createdAt } = e.data;
      await ctx.put(COLLECTIONS, {
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
      });
    },
    CollectionUpdated: async (e, ctx) => {
      const doc = await ctx.get(COLLECTIONS, e.data.collectionId);
      if (doc) {
        const changed = { ...doc, ...e.data.changes, updatedAt: e.data.updatedAt };
        await ctx.put(COLLECTIONS, { ...changed, streamRevision: e.revision });
      }
    },
    CollectionMoved: async (e, ctx) => {
      const doc = await ctx.get(COLLECTIONS, e.data.collectionId);
      if (doc) {
        await ctx.put(COLLECTIONS, {
          ...doc,
          parent: e.data.parent,
          position: e.data.position,
          updatedAt: e.data.movedAt,
          streamRevision: e.revision,
        });
      }
    },
    CollectionTransferred: async (e, ctx) => {
      const { collectionId, organization, position, contents, transferredAt } = e.data;
      const doc = await ctx.get(COLLECTIONS, collectionId);
      if (doc) {
        await ctx.put(COLLECTIONS, {
          ...doc,
          organization,
          parent: null,
          position,
          updatedAt: transferredAt,
          streamRevision: e.revision,
        });
      }
      for (const id of contents.collections) {
        const child = await ctx.get(COLLECTIONS, id);
        if (child) await ctx.put(COLLECTIONS, { ...child, organization, updatedAt: transferredAt });
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
