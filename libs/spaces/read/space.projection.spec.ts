import { type CollectionEvent, collectionStream } from '@app/collections/domain/collection.decider';
import { type SpaceContentEvent, spaceContentStream } from '@app/content/domain/space-content.decider';
import { givenProjection, recorderOf } from '@app/platform/projector/projection.testing';
import { type SpaceEvent, spaceStream, type Visibility } from '../domain/space.decider';
import { SPACES, type SpaceDoc, spaceProjection } from './space.projection';

const spaceEvent = recorderOf<SpaceEvent>();
const collectionEvent = recorderOf<CollectionEvent>();
const t = (day: number) => `2026-01-${String(day).padStart(2, '0')}T00:00:00.000Z`;

const created = (
  id: string,
  parent: string | null,
  visibility: Visibility = parent ? 'in-collection' : 'private',
) =>
  spaceEvent(
    'SpaceCreated',
    {
      id,
      organization: 'o1',
      parent,
      title: `Title ${id}`,
      emoji: '📘',
      editMode: 'live',
      defaultLevel: 'inherit',
      visibility,
      revision: `rev-${id}`,
      position: 0,
      createdAt: t(1),
    },
    { stream: spaceStream(id) },
  );

/** The document `created` makes, with what a test changes. */
const doc = (id: string, parent: string | null, changes: Partial<SpaceDoc> = {}): SpaceDoc => ({
  id,
  organization: 'o1',
  parent,
  title: `Title ${id}`,
  emoji: '📘',
  editMode: 'live',
  defaultLevel: 'inherit',
  visibility: parent ? 'in-collection' : 'private',
  revision: `rev-${id}`,
  position: 0,
  createdAt: t(1),
  updatedAt: t(1),
  deleted: false,
  deletedAt: null,
  purgeAfter: null,
  deletion: null,
  comments: 0,
  changeRequests: 0,
  changeRequestsOpen: 0,
  changeRequestsDraft: 0,
  streamRevision: 0,
  ...changes,
});

const inSpace = (id: string) => ({ stream: spaceStream(id) });
const deleted = (id: string, day: number) =>
  spaceEvent('SpaceDeleted', { spaceId: id, deletedAt: t(day), purgeAfter: t(day + 7) }, inSpace(id));
const moved = (id: string, parent: string | null, position: number) =>
  spaceEvent('SpaceMoved', { spaceId: id, parent, position, movedAt: t(3) }, inSpace(id));
const collectionDeleted = (collectionId: string, parent: string | null, organization = 'o1') =>
  collectionEvent(
    'CollectionDeleted',
    { collectionId, organization, parent, deletedAt: t(6) },
    { stream: collectionStream(collectionId) },
  );
const collectionTransferred = (collectionId: string, spaces: string[]) =>
  collectionEvent(
    'CollectionTransferred',
    {
      collectionId,
      fromOrganization: 'o1',
      organization: 'o2',
      position: 4,
      contents: { collections: [], spaces },
      transferredAt: t(5),
    },
    { stream: collectionStream(collectionId) },
  );

const spaces = givenProjection(spaceProjection);

describe('spaces projection', () => {
  it('records a created space with empty counters, and not what it was duplicated from', async () => {
    const duplicate = spaceEvent(
      'SpaceCreated',
      { ...created('s2', 'c1').data, duplicatedFrom: 's1' },
      { stream: spaceStream('s2') },
    );
    await spaces
      .given(created('s1', 'c1'), duplicate)
      .thenDocuments(SPACES, [doc('s1', 'c1'), doc('s2', 'c1')]);
  });

  it("records a duplicate's language and the content root its first revision holds", async () => {
    const duplicate = spaceEvent(
      'SpaceCreated',
      { ...created('s2', 'c1').data, language: 'fr', duplicatedFrom: 's1', root: 'root-s1' },
      { stream: spaceStream('s2') },
    );
    const scenario = spaces.given(created('s1', 'c1'), duplicate);
    await scenario.thenDocuments(SPACES, [
      doc('s1', 'c1'),
      doc('s2', 'c1', { language: 'fr', root: 'root-s1' }),
    ]);
    await scenario.thenReplayChangesNothing();
    await scenario.thenRebuildMatches();
  });

  it('sets the language of a space (absent until then)', async () => {
    const updated = spaceEvent(
      'SpaceUpdated',
      { spaceId: 's1', changes: { language: 'de' }, updatedAt: t(2) },
      inSpace('s1'),
    );
    await spaces
      .given(created('s1', 'c1'), updated)
      .thenDocuments(SPACES, [doc('s1', 'c1', { language: 'de', updatedAt: t(2), streamRevision: 1 })]);
  });

  it('sets the icon of a space in place of its emoji, and removes it (absent until set)', async () => {
    const icon = 'https://example.com/icon.png';
    const set = spaceEvent(
      'SpaceUpdated',
      { spaceId: 's1', changes: { icon, emoji: '' }, updatedAt: t(2) },
      inSpace('s1'),
    );
    const removed = spaceEvent(
      'SpaceUpdated',
      { spaceId: 's1', changes: { emoji: '📕', icon: null }, updatedAt: t(3) },
      inSpace('s1'),
    );
    await spaces
      .given(created('s1', 'c1'), set)
      .thenDocuments(SPACES, [doc('s1', 'c1', { icon, emoji: '', updatedAt: t(2), streamRevision: 1 })]);
    await spaces
      .given(created('s1', 'c1'), set, removed)
      .thenDocuments(SPACES, [
        doc('s1', 'c1', { icon: null, emoji: '📕', updatedAt: t(3), streamRevision: 2 }),
      ]);
  });

  it('applies an update to the fields it changes', async () => {
    const updated = spaceEvent(
      'SpaceUpdated',
      { spaceId: 's1', changes: { title: 'Guide', editMode: 'locked' }, updatedAt: t(2) },
      inSpace('s1'),
    );
    await spaces
      .given(created('s1', 'c1'), updated)
      .thenDocuments(SPACES, [
        doc('s1', 'c1', { title: 'Guide', editMode: 'locked', updatedAt: t(2), streamRevision: 1 }),
      ]);
  });

  it('keeps a deleted space, with its deletion for the purge to name as its cause', async () => {
    const scenario = spaces.given(created('s1', 'c1'), deleted('s1', 2));
    const deletion = scenario.events[1];
    await scenario.thenDocuments(SPACES, [
      doc('s1', 'c1', {
        deleted: true,
        deletedAt: t(2),
        purgeAfter: t(9),
        deletion: { eventId: deletion.id, correlationId: deletion.metadata.correlationId },
        updatedAt: t(2),
        streamRevision: 1,
      }),
    ]);
  });

  it('restores a deleted space', async () => {
    const restored = spaceEvent('SpaceRestored', { spaceId: 's1', restoredAt: t(3) }, inSpace('s1'));
    await spaces
      .given(created('s1', 'c1'), deleted('s1', 2), restored)
      .thenDocuments(SPACES, [doc('s1', 'c1', { updatedAt: t(3), streamRevision: 2 })]);
  });

  it('forgets a purged space', async () => {
    const purged = spaceEvent('SpacePurged', { spaceId: 's1', purgedAt: t(9) }, inSpace('s1'));
    await spaces
      .given(created('s1', 'c1'), created('s2', 'c1'), deleted('s1', 2), purged)
      .thenDocuments(SPACES, [doc('s2', 'c1')]);
  });

  it('moves a space; one `in-collection` moved to the top level becomes private', async () => {
    await spaces
      .given(created('s1', 'c1'), created('s2', null), moved('s1', null, 2), moved('s2', 'c1', 1))
      .thenDocuments(SPACES, [
        doc('s1', null, { position: 2, visibility: 'private', updatedAt: t(3), streamRevision: 1 }),
        // Private stays private in a collection.
        doc('s2', 'c1', { position: 1, visibility: 'private', updatedAt: t(3), streamRevision: 1 }),
      ]);
  });

  it('keeps any other visibility when a space moves to the top level', async () => {
    await spaces
      .given(created('s1', 'c1', 'public'), moved('s1', null, 2))
      .thenDocuments(SPACES, [
        doc('s1', null, { position: 2, visibility: 'public', updatedAt: t(3), streamRevision: 1 }),
      ]);
  });

  it('transfers a space to another organization, private when it lands at the top level', async () => {
    const transferred = (id: string, parent: string | null) =>
      spaceEvent(
        'SpaceTransferred',
        { spaceId: id, fromOrganization: 'o1', organization: 'o2', parent, position: 3, transferredAt: t(4) },
        inSpace(id),
      );
    await spaces
      .given(created('s1', 'c1'), created('s2', 'c1'), transferred('s1', null), transferred('s2', 'c9'))
      .thenDocuments(SPACES, [
        doc('s1', null, {
          organization: 'o2',
          position: 3,
          visibility: 'private',
          updatedAt: t(4),
          streamRevision: 1,
        }),
        doc('s2', 'c9', { organization: 'o2', position: 3, updatedAt: t(4), streamRevision: 1 }),
      ]);
  });

  it('ignores events of a space it never saw created', async () => {
    await spaces
      .given(
        spaceEvent('SpaceUpdated', { spaceId: 's9', changes: { title: 'X' }, updatedAt: t(2) }),
        deleted('s9', 2),
        moved('s9', null, 0),
        spaceEvent('SpacePurged', { spaceId: 's9', purgedAt: t(9) }),
      )
      .thenDocuments(SPACES, []);
  });

  it('moves the spaces a transferred collection holds to the new organization, in their collections', async () => {
    await spaces
      .given(
        created('s1', 'c1'),
        created('s2', 'c2'),
        created('s3', 'c3'),
        collectionTransferred('c1', ['s1', 's2', 's9']),
      )
      .thenDocuments(SPACES, [
        // Their own streams are untouched: their ETags stay.
        doc('s1', 'c1', { organization: 'o2', updatedAt: t(5) }),
        doc('s2', 'c2', { organization: 'o2', updatedAt: t(5) }),
        doc('s3', 'c3'),
      ]);
  });

  it("hands a deleted collection's spaces, deleted ones too, to its parent collection", async () => {
    const scenario = spaces.given(
      created('s1', 'c2'),
      created('s2', 'c2'),
      created('s3', 'c1'),
      deleted('s2', 2),
      collectionDeleted('c2', 'c1'),
    );
    const deletion = scenario.events[3];
    await scenario.thenDocuments(SPACES, [
      doc('s1', 'c1', { updatedAt: t(6) }),
      doc('s2', 'c1', {
        deleted: true,
        deletedAt: t(2),
        purgeAfter: t(9),
        deletion: { eventId: deletion.id, correlationId: deletion.metadata.correlationId },
        updatedAt: t(6),
        streamRevision: 1,
      }),
      doc('s3', 'c1'),
    ]);
  });

  it('hands the spaces of a deleted top-level collection to the top level: `in-collection` ones become private', async () => {
    await spaces
      .given(created('s1', 'c1'), created('s2', 'c1', 'public'), collectionDeleted('c1', null))
      .thenDocuments(SPACES, [
        doc('s1', null, { visibility: 'private', updatedAt: t(6) }),
        doc('s2', null, { visibility: 'public', updatedAt: t(6) }),
      ]);
  });

  it('changes nothing when the events are replayed, and a rebuild gives the same views', async () => {
    const scenario = spaces.given(
      created('s1', 'c1'),
      created('s2', 'c2'),
      created('s3', 'c2'),
      created('s4', null),
      spaceEvent('SpaceUpdated', { spaceId: 's1', changes: { emoji: '📕' }, updatedAt: t(2) }, inSpace('s1')),
      deleted('s4', 2),
      moved('s3', 'c1', 1),
      collectionTransferred('c1', ['s1', 's3']),
      deleted('s1', 6),
      spaceEvent('SpaceRestored', { spaceId: 's1', restoredAt: t(7) }, inSpace('s1')),
      spaceEvent('SpacePurged', { spaceId: 's4', purgedAt: t(9) }, inSpace('s4')),
      collectionDeleted('c2', null),
      collectionDeleted('c1', null, 'o2'),
    );
    await scenario.thenDocuments(SPACES, [
      doc('s1', null, {
        organization: 'o2',
        emoji: '📕',
        visibility: 'private',
        updatedAt: t(6),
        streamRevision: 3,
      }),
      doc('s2', null, { visibility: 'private', updatedAt: t(6) }),
      doc('s3', null, {
        organization: 'o2',
        position: 1,
        visibility: 'private',
        updatedAt: t(6),
        streamRevision: 1,
      }),
    ]);
    await scenario.thenReplayChangesNothing();
    await scenario.thenRebuildMatches();
  });
});

describe('spaces projection, change request counters', () => {
  const contentEvent = recorderOf<SpaceContentEvent>();
  const inContent = { stream: spaceContentStream('s1') };
  const crCreated = (id: string, number: number) =>
    contentEvent(
      'ChangeRequestCreated',
      {
        spaceId: 's1',
        changeRequestId: id,
        organization: 'o1',
        number,
        subject: '',
        status: 'open',
        revisionInitial: { id: 'rev-s1', root: 'r0' },
        createdBy: 'u1',
        createdAt: t(2),
      },
      inContent,
    );
  const status = (id: string, from: 'open' | 'draft' | 'archived', to: 'open' | 'draft' | 'archived') =>
    contentEvent(
      'ChangeRequestUpdated',
      { spaceId: 's1', changeRequestId: id, changes: { status: to }, previousStatus: from, updatedAt: t(3) },
      inContent,
    );
  const crMerged = contentEvent(
    'ChangeRequestMerged',
    {
      spaceId: 's1',
      changeRequestId: 'a',
      revision: { id: 'rev-2', root: 'r2' },
      parents: ['rev-s1', 'rev-1'],
      previousStatus: 'draft',
      mergedBy: 'u1',
      mergedAt: t(4),
    },
    inContent,
  );

  it('counts change requests by status, and a merge moves the revision (and its root) but not the ETag', async () => {
    const scenario = spaces.given(
      created('s1', null),
      crCreated('a', 1),
      crCreated('b', 2),
      crCreated('c', 3),
      status('a', 'open', 'draft'),
      status('c', 'open', 'archived'),
      crMerged,
    );
    await scenario.thenDocuments(SPACES, [
      doc('s1', null, {
        changeRequests: 3,
        changeRequestsOpen: 1,
        changeRequestsDraft: 0,
        revision: 'rev-2',
        root: 'r2',
        updatedAt: t(4),
      }),
    ]);
    await scenario.thenReplayChangesNothing();
    await scenario.thenRebuildMatches();
  });
});
