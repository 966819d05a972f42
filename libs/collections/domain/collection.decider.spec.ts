import { fold } from '@app/platform/domain/decider';
import { spec } from '@app/platform/domain/decider.testing';
import {
  type CollectionCommand,
  type CollectionContents,
  type CollectionEvent,
  type CollectionSettings,
  collectionDecider,
  collectionStream,
} from './collection.decider';

const t0 = Date.parse('2026-01-01T00:00:00Z');
const t1 = t0 + 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

const settings: CollectionSettings = { title: 'Guides', description: null, defaultLevel: 'inherit' };

type CreateCollection = Extract<CollectionCommand, { type: 'CreateCollection' }>;
type CollectionCreated = Extract<CollectionEvent, { type: 'CollectionCreated' }>;

const createCollection = (overrides: Partial<CreateCollection> = {}): CreateCollection => ({
  type: 'CreateCollection',
  collectionId: 'coll1',
  organization: 'org1',
  parent: 'root',
  settings,
  position: 0,
  at: t0,
  ...overrides,
});

const collectionCreated = (data: Partial<CollectionCreated['data']> = {}): CollectionCreated => ({
  type: 'CollectionCreated',
  data: {
    id: 'coll1',
    organization: 'org1',
    parent: 'root',
    ...settings,
    position: 0,
    createdAt: iso(t0),
    ...data,
  },
});

const collectionDeleted = (at: number): CollectionEvent => ({
  type: 'CollectionDeleted',
  data: { collectionId: 'coll1', organization: 'org1', parent: 'root', deletedAt: iso(at) },
});

const contents: CollectionContents = { collections: ['coll2'], spaces: ['space1', 'space2'] };

const transferredTo = (organization: string, fromOrganization = 'org1', at = t1): CollectionEvent => ({
  type: 'CollectionTransferred',
  data: {
    collectionId: 'coll1',
    fromOrganization,
    organization,
    position: 0,
    contents,
    transferredAt: iso(at),
  },
});

const active = [collectionCreated()];
const deleted = [collectionCreated(), collectionDeleted(t1)];

const collection = spec(collectionDecider);

describe('collection decider', () => {
  it('names the stream after the collection', () => {
    expect(collectionStream('coll1')).toBe('collection-coll1');
  });

  describe('CreateCollection', () => {
    it('creates a collection inside another one', () => {
      const state = collection.when(createCollection()).thenEmits([collectionCreated()]);
      expect(state).toStrictEqual({
        status: 'active',
        id: 'coll1',
        organization: 'org1',
        parent: 'root',
        ...settings,
      });
    });

    it('creates a top-level collection with a description', () => {
      const state = collection
        .when(
          createCollection({ parent: null, position: 2, settings: { ...settings, description: 'How-tos' } }),
        )
        .thenEmits([collectionCreated({ parent: null, position: 2, description: 'How-tos' })]);
      expect(state).toMatchObject({ parent: null, description: 'How-tos' });
      expect(state).not.toHaveProperty('position');
      expect(state).not.toHaveProperty('createdAt');
    });

    it('rejects creating a collection that already exists', () => {
      collection
        .given(active)
        .when(createCollection())
        .thenThrows('conflict', /already exists/);
    });

    it('rejects creating a collection that was deleted', () => {
      collection
        .given(deleted)
        .when(createCollection())
        .thenThrows('conflict', /already exists/);
    });
  });

  describe('UpdateCollection', () => {
    it('emits only the fields that change', () => {
      const state = collection
        .given(active)
        .when({
          type: 'UpdateCollection',
          changes: { title: 'Tutorials', description: null, defaultLevel: 'inherit' },
          at: t1,
        })
        .thenEmits([
          {
            type: 'CollectionUpdated',
            data: { collectionId: 'coll1', changes: { title: 'Tutorials' }, updatedAt: iso(t1) },
          },
        ]);
      expect(state).toMatchObject({ status: 'active', title: 'Tutorials', description: null });
    });

    it('ignores fields given as undefined', () => {
      collection
        .given(active)
        .when({ type: 'UpdateCollection', changes: { title: undefined, defaultLevel: 'read' }, at: t1 })
        .thenEmits([
          {
            type: 'CollectionUpdated',
            data: { collectionId: 'coll1', changes: { defaultLevel: 'read' }, updatedAt: iso(t1) },
          },
        ]);
    });

    it('sets and clears the description', () => {
      const described: CollectionEvent = {
        type: 'CollectionUpdated',
        data: { collectionId: 'coll1', changes: { description: 'How-tos' }, updatedAt: iso(t1) },
      };
      collection
        .given(active)
        .when({ type: 'UpdateCollection', changes: { description: 'How-tos' }, at: t1 })
        .thenEmits([described]);
      const state = collection
        .given([...active, described])
        .when({ type: 'UpdateCollection', changes: { description: null }, at: t1 + 1000 })
        .thenEmits([
          {
            type: 'CollectionUpdated',
            data: { collectionId: 'coll1', changes: { description: null }, updatedAt: iso(t1 + 1000) },
          },
        ]);
      expect(state).toMatchObject({ description: null });
    });

    it('emits nothing when no field changes', () => {
      collection
        .given(active)
        .when({ type: 'UpdateCollection', changes: { ...settings }, at: t1 })
        .thenNothing();
    });

    it('emits nothing for empty changes', () => {
      collection.given(active).when({ type: 'UpdateCollection', changes: {}, at: t1 }).thenNothing();
    });

    it('rejects updating a collection that does not exist', () => {
      collection
        .when({ type: 'UpdateCollection', changes: { title: 'Tutorials' }, at: t1 })
        .thenThrows('not_found');
    });

    it('rejects updating a deleted collection', () => {
      collection
        .given(deleted)
        .when({ type: 'UpdateCollection', changes: { title: 'Tutorials' }, at: t1 })
        .thenThrows('not_found');
    });
  });

  describe('MoveCollection', () => {
    it('moves a collection into another one', () => {
      const state = collection
        .given(active)
        .when({ type: 'MoveCollection', parent: 'other', position: 3, at: t1 })
        .thenEmits([
          {
            type: 'CollectionMoved',
            data: { collectionId: 'coll1', parent: 'other', position: 3, movedAt: iso(t1) },
          },
        ]);
      expect(state).toMatchObject({ status: 'active', parent: 'other', organization: 'org1' });
    });

    it('moves a collection to the top level', () => {
      const state = collection
        .given(active)
        .when({ type: 'MoveCollection', parent: null, position: 0, at: t1 })
        .thenEmits([
          {
            type: 'CollectionMoved',
            data: { collectionId: 'coll1', parent: null, position: 0, movedAt: iso(t1) },
          },
        ]);
      expect(state).toMatchObject({ parent: null });
    });

    it('rejects moving a collection into itself', () => {
      collection
        .given(active)
        .when({ type: 'MoveCollection', parent: 'coll1', position: 0, at: t1 })
        .thenThrows('invalid', /into itself/);
    });

    it('rejects moving a collection that does not exist', () => {
      collection.when({ type: 'MoveCollection', parent: null, position: 0, at: t1 }).thenThrows('not_found');
    });

    it('rejects moving a deleted collection', () => {
      collection
        .given(deleted)
        .when({ type: 'MoveCollection', parent: null, position: 0, at: t1 })
        .thenThrows('not_found');
    });
  });

  describe('TransferCollection', () => {
    it('transfers a collection and its contents to the top level of another organization', () => {
      const state = collection
        .given(active)
        .when({ type: 'TransferCollection', organization: 'org2', position: 0, contents, at: t1 })
        .thenEmits([transferredTo('org2')]);
      expect(state).toStrictEqual({
        status: 'active',
        id: 'coll1',
        organization: 'org2',
        parent: null,
        ...settings,
      });
    });

    it('names the current organization as the origin of a transfer back', () => {
      const state = collection
        .given([...active, transferredTo('org2')])
        .when({ type: 'TransferCollection', organization: 'org1', position: 0, contents, at: t1 + 1000 })
        .thenEmits([transferredTo('org1', 'org2', t1 + 1000)]);
      expect(state).toMatchObject({ organization: 'org1', parent: null });
    });

    it('rejects transferring a collection to the organization it belongs to', () => {
      collection
        .given(active)
        .when({ type: 'TransferCollection', organization: 'org1', position: 0, contents, at: t1 })
        .thenThrows('conflict', /already belongs/);
    });

    it('rejects transferring a collection that does not exist', () => {
      collection
        .when({ type: 'TransferCollection', organization: 'org2', position: 0, contents, at: t1 })
        .thenThrows('not_found');
    });

    it('rejects transferring a deleted collection', () => {
      collection
        .given(deleted)
        .when({ type: 'TransferCollection', organization: 'org2', position: 0, contents, at: t1 })
        .thenThrows('not_found');
    });
  });

  describe('DeleteCollection', () => {
    it('deletes a collection, naming its organization and parent', () => {
      const state = collection
        .given(active)
        .when({ type: 'DeleteCollection', at: t1 })
        .thenEmits([collectionDeleted(t1)]);
      expect(state).toStrictEqual({ status: 'deleted', id: 'coll1' });
    });

    it('names the parent it was last moved to', () => {
      const moved: CollectionEvent = {
        type: 'CollectionMoved',
        data: { collectionId: 'coll1', parent: 'other', position: 1, movedAt: iso(t1) },
      };
      collection
        .given([...active, moved])
        .when({ type: 'DeleteCollection', at: t1 + 1000 })
        .thenEmits([
          {
            type: 'CollectionDeleted',
            data: { collectionId: 'coll1', organization: 'org1', parent: 'other', deletedAt: iso(t1 + 1000) },
          },
        ]);
    });

    it('names the organization it was transferred to', () => {
      collection
        .given([...active, transferredTo('org2')])
        .when({ type: 'DeleteCollection', at: t1 + 1000 })
        .thenEmits([
          {
            type: 'CollectionDeleted',
            data: { collectionId: 'coll1', organization: 'org2', parent: null, deletedAt: iso(t1 + 1000) },
          },
        ]);
    });

    it('emits nothing when the collection is already deleted', () => {
      collection
        .given(deleted)
        .when({ type: 'DeleteCollection', at: t1 + 1000 })
        .thenNothing();
    });

    it('rejects deleting a collection that does not exist', () => {
      collection.when({ type: 'DeleteCollection', at: t1 }).thenThrows('not_found');
    });
  });

  describe('evolve', () => {
    it('ignores updates, moves and transfers of a deleted collection', () => {
      const after = fold(collectionDecider, [
        ...deleted,
        {
          type: 'CollectionUpdated',
          data: { collectionId: 'coll1', changes: { title: 'x' }, updatedAt: iso(t1) },
        },
        {
          type: 'CollectionMoved',
          data: { collectionId: 'coll1', parent: null, position: 0, movedAt: iso(t1) },
        },
        transferredTo('org2'),
      ]);
      expect(after).toStrictEqual({ status: 'deleted', id: 'coll1' });
    });
  });
});
