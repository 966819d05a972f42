import type { DefaultLevel } from '@app/platform/domain/roles';
import { projection } from '@app/platform/projector/projection';
import type { Doc } from '@app/platform/readstore/read-store.port';

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

/**
 * Collections. A transfer also moves everything below the collection to the new organization, and a
 * deletion hands the collection's children to its parent, so nothing it held is lost.
 */
export const collectionProjection = projection(
  'collections',
  [
    { collection: 'collections', fields: ['organization', 'position'] },
    { collection: 'collections', fields: ['organization', 'parent', 'position'] },
    { collection: 'collections', fields: ['parent'] },
  ],
  {
    CollectionCreated: async (e, ctx) => {
      const { id, organization, parent, title, description, defaultLevel, position, createdAt } = e.data;
      await ctx.put('collections', {
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
      const doc = await ctx.get<CollectionDoc>('collections', e.data.collectionId);
      if (doc) {
        const changed = { ...doc, ...e.data.changes, updatedAt: e.data.updatedAt };
        await ctx.put('collections', { ...changed, streamRevision: e.revision });
      }
    },
    CollectionMoved: async (e, ctx) => {
      const doc = await ctx.get<CollectionDoc>('collections', e.data.collectionId);
      if (doc) {
        await ctx.put('collections', {
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
      const doc = await ctx.get<CollectionDoc>('collections', collectionId);
      if (doc) {
        await ctx.put('collections', {
          ...doc,
          organization,
          parent: null,
          position,
          updatedAt: transferredAt,
          streamRevision: e.revision,
        });
      }
      for (const id of contents.collections) {
        const child = await ctx.get<CollectionDoc>('collections', id);
        if (child) await ctx.put('collections', { ...child, organization, updatedAt: transferredAt });
      }
      for (const id of contents.spaces) {
        const space = await ctx.get('spaces', id);
        if (space) await ctx.put('spaces', { ...space, organization, updatedAt: transferredAt });
      }
    },
    CollectionDeleted: async (e, ctx) => {
      const { collectionId, parent, deletedAt } = e.data;
      await ctx.delete('collections', collectionId);
      for (const child of await ctx.find<CollectionDoc>('collections', { parent: collectionId })) {
        await ctx.put('collections', { ...child, parent, updatedAt: deletedAt });
      }
      for (const space of await ctx.find('spaces', { parent: collectionId })) {
        const visibility =
          parent === null && space.visibility === 'in-collection' ? 'private' : space.visibility;
        await ctx.put('spaces', { ...space, parent, visibility, updatedAt: deletedAt });
      }
    },
  },
  // A transfer or a deletion also rewrites the spaces below the collection.
  ['collections', 'spaces'],
);
