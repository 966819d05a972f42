import { givenProjection, recorderOf } from '@app/platform/projector/projection.testing';
import { type CollectionEvent, collectionStream } from '../domain/collection.decider';
import { COLLECTIONS, type CollectionDoc, collectionProjection } from './collection.projection';

const recorded = recorderOf<CollectionEvent>();
const t = (day: number) => `2026-01-${String(day).padStart(2, '0')}T00:00:00.000Z`;

const created = (id: string, parent: string | null, position: number) =>
  recorded(
    'CollectionCreated',
    {
      id,
      organization: 'o1',
      parent,
      title: `Title ${id}`,
      description: null,
      defaultLevel: 'inherit',
      position,
      createdAt: t(1),
    },
    { stream: collectionStream(id) },
  );

/** The document `created` makes, with what a test changes. */
const doc = (id: string, parent: string | null, position: number, changes: Partial<CollectionDoc> = {}) => ({
  id,
  organization: 'o1',
  parent,
  title: `Title ${id}`,
  description: null,
  defaultLevel: 'inherit' as const,
  position,
  createdAt: t(1),
  updatedAt: t(1),
  streamRevision: 0,
  ...changes,
});

const collections = givenProjection(collectionProjection);

describe('collections projection', () => {
  it('records a created collection, its stream revision as its ETag', async () => {
    await collections.given(created('c1', null, 0)).thenDocuments(COLLECTIONS, [doc('c1', null, 0)]);
  });

  it('applies an update to the fields it changes', async () => {
    const updated = recorded(
      'CollectionUpdated',
      { collectionId: 'c1', changes: { title: 'Renamed', defaultLevel: 'read' }, updatedAt: t(2) },
      { stream: collectionStream('c1') },
    );
    await collections
      .given(created('c1', null, 0), updated)
      .thenDocuments(COLLECTIONS, [
        doc('c1', null, 0, { title: 'Renamed', defaultLevel: 'read', updatedAt: t(2), streamRevision: 1 }),
      ]);
  });

  it('moves a collection under another parent and position', async () => {
    const moved = recorded(
      'CollectionMoved',
      { collectionId: 'c2', parent: 'c1', position: 3, movedAt: t(2) },
      { stream: collectionStream('c2') },
    );
    await collections
      .given(created('c1', null, 0), created('c2', null, 1), moved)
      .thenDocuments(COLLECTIONS, [
        doc('c1', null, 0),
        doc('c2', 'c1', 3, { updatedAt: t(2), streamRevision: 1 }),
      ]);
  });

  it('ignores events of a collection it never saw created', async () => {
    await collections
      .given(
        recorded('CollectionUpdated', { collectionId: 'c9', changes: { title: 'X' }, updatedAt: t(2) }),
        recorded('CollectionMoved', { collectionId: 'c9', parent: null, position: 0, movedAt: t(2) }),
      )
      .thenDocuments(COLLECTIONS, []);
  });

  it('transfers a collection to the top level of another organization, with every collection below it', async () => {
    const transferred = recorded(
      'CollectionTransferred',
      {
        collectionId: 'c2',
        fromOrganization: 'o1',
        organization: 'o2',
        position: 7,
        contents: { collections: ['c3', 'c4'], spaces: ['s1'] },
        transferredAt: t(3),
      },
      { stream: collectionStream('c2') },
    );
    await collections
      .given(
        created('c1', null, 0),
        created('c2', 'c1', 0),
        created('c3', 'c2', 0),
        created('c4', 'c3', 0),
        transferred,
      )
      .thenDocuments(COLLECTIONS, [
        doc('c1', null, 0),
        doc('c2', null, 7, { organization: 'o2', updatedAt: t(3), streamRevision: 1 }),
        // The collections below keep their place in it, and their own streams' revisions.
        doc('c3', 'c2', 0, { organization: 'o2', updatedAt: t(3) }),
        doc('c4', 'c3', 0, { organization: 'o2', updatedAt: t(3) }),
      ]);
  });

  it('removes a deleted collection and hands its children to its parent, the grandchildren staying put', async () => {
    const deleted = recorded(
      'CollectionDeleted',
      { collectionId: 'c2', organization: 'o1', parent: 'c1', deletedAt: t(4) },
      { stream: collectionStream('c2') },
    );
    await collections
      .given(
        created('c1', null, 0),
        created('c2', 'c1', 0),
        created('c3', 'c2', 0),
        created('c4', 'c3', 0),
        deleted,
      )
      .thenDocuments(COLLECTIONS, [
        doc('c1', null, 0),
        doc('c3', 'c1', 0, { updatedAt: t(4) }),
        doc('c4', 'c3', 0),
      ]);
  });

  it('hands the children of a deleted top-level collection to the top level', async () => {
    const deleted = recorded(
      'CollectionDeleted',
      { collectionId: 'c1', organization: 'o1', parent: null, deletedAt: t(4) },
      { stream: collectionStream('c1') },
    );
    await collections
      .given(created('c1', null, 0), created('c2', 'c1', 0), deleted)
      .thenDocuments(COLLECTIONS, [doc('c2', null, 0, { updatedAt: t(4) })]);
  });

  it('changes nothing when the events are replayed, and a rebuild gives the same views', async () => {
    const scenario = collections.given(
      created('c1', null, 0),
      created('c2', 'c1', 0),
      created('c3', 'c2', 0),
      recorded(
        'CollectionUpdated',
        { collectionId: 'c3', changes: { description: 'About' }, updatedAt: t(2) },
        { stream: collectionStream('c3') },
      ),
      recorded(
        'CollectionTransferred',
        {
          collectionId: 'c2',
          fromOrganization: 'o1',
          organization: 'o2',
          position: 0,
          contents: { collections: ['c3'], spaces: [] },
          transferredAt: t(3),
        },
        { stream: collectionStream('c2') },
      ),
      recorded(
        'CollectionMoved',
        { collectionId: 'c3', parent: null, position: 1, movedAt: t(4) },
        { stream: collectionStream('c3') },
      ),
      created('c5', 'c1', 1),
      recorded(
        'CollectionDeleted',
        { collectionId: 'c1', organization: 'o1', parent: null, deletedAt: t(5) },
        { stream: collectionStream('c1') },
      ),
    );
    await scenario.thenDocuments(COLLECTIONS, [
      doc('c2', null, 0, { organization: 'o2', updatedAt: t(3), streamRevision: 1 }),
      doc('c3', null, 1, { organization: 'o2', description: 'About', updatedAt: t(4), streamRevision: 2 }),
      doc('c5', null, 1, { updatedAt: t(5) }),
    ]);
    await scenario.thenReplayChangesNothing();
    await scenario.thenRebuildMatches();
  });
});
