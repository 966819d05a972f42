import type { CollectionEvent } from '@app/collections/domain/collection.decider';
import { FEATURES } from '@app/composition/features';
import type { UserEvent } from '@app/identity/domain/user.decider';
import type { OrganizationEvent } from '@app/organizations/domain/organization.decider';
import type { EventOverrides, ProjectionScenario } from '@app/platform/projector/projection.testing';
import { givenProjection, recorderOf } from '@app/platform/projector/projection.testing';
import type { SpaceEvent } from '@app/spaces/domain/space.decider';
import { type ActorType, auditEntry, type Labelled, SYSTEM_ACTOR } from '../domain/audit-entry';
import { AuditCatalog } from '../domain/audited-events';
import { AUDIT_ENTRIES, AUDIT_RESOURCES, auditProjection } from './audit.projection';

const recorded = recorderOf<UserEvent | OrganizationEvent | CollectionEvent | SpaceEvent>();
const catalog = new AuditCatalog(FEATURES);
const audit = givenProjection(auditProjection(catalog));
const t = '2026-01-01T00:00:00.000Z';

const byAda: EventOverrides = { metadata: { actor: { userId: 'u1', source: 'api' } } };
const ada: Labelled<ActorType> = { type: 'user', id: 'u1', label: 'Ada Lovelace' };
const system: Labelled<ActorType> = { type: 'system', id: SYSTEM_ACTOR, label: null };

const userCreated = (userId: string, displayName: string) =>
  recorded('UserCreated', { userId, displayName, email: `${userId}@example.com`, createdAt: t });
const organizationCreated = (organizationId: string, title: string) =>
  recorded(
    'OrganizationCreated',
    { organizationId, title, emailDomains: [], createdBy: 'u1', createdAt: t },
    byAda,
  );
const collectionCreated = (id: string, organization: string, parent: string | null, title: string) =>
  recorded(
    'CollectionCreated',
    {
      id,
      organization,
      parent,
      title,
      description: null,
      defaultLevel: 'inherit',
      position: 0,
      createdAt: t,
    },
    byAda,
  );
const spaceCreated = (id: string, organization: string, parent: string | null, title: string) =>
  recorded(
    'SpaceCreated',
    {
      id,
      organization,
      parent,
      title,
      emoji: '',
      editMode: 'live',
      defaultLevel: 'inherit',
      visibility: parent ? 'in-collection' : 'private',
      revision: 'r1',
      position: 0,
      createdAt: t,
    },
    byAda,
  );

/** What `auditEntry` makes of the scenario's event `index` (its format has a spec of its own). */
const entry = (
  scenario: ProjectionScenario,
  index: number,
  organization: string,
  target: Labelled<string>,
  actor = ada,
) => {
  const event = scenario.events[index];
  return auditEntry(event, catalog.actionOf(event.type), organization, target, actor);
};

describe('audit projection', () => {
  it('registers users by display name and records no entry for them', async () => {
    const scenario = audit.given(userCreated('u1', 'Ada Lovelace'));
    await scenario.thenDocuments(AUDIT_ENTRIES, []);
    await scenario.thenDocuments(AUDIT_RESOURCES, [
      { id: 'user:u1', organization: null, label: 'Ada Lovelace' },
    ]);
  });

  it('records a created organization in itself, by its creator, and registers it', async () => {
    const scenario = audit.given(userCreated('u1', 'Ada Lovelace'), organizationCreated('o1', 'Acme'));
    const created = scenario.events[1];
    await scenario.thenDocuments(AUDIT_ENTRIES, [
      {
        id: `o1:${created.id}`,
        organization: 'o1',
        eventId: created.id,
        occurredAt: created.metadata.occurredAt,
        sortKey: `${created.metadata.occurredAt}|0000000000000002`,
        action: 'organization.created',
        actorType: 'user',
        actorId: 'u1',
        actorLabel: 'Ada Lovelace',
        source: 'api',
        targetType: 'organization',
        targetId: 'o1',
        targetLabel: 'Acme',
        stream: created.stream,
        revision: created.revision,
      },
    ]);
    await scenario.thenDocuments(AUDIT_RESOURCES, [
      { id: 'organization:o1', organization: 'o1', label: 'Acme' },
      { id: 'user:u1', organization: null, label: 'Ada Lovelace' },
    ]);
  });

  it("labels member entries with the user's display name, and registers no member", async () => {
    const scenario = audit.given(
      userCreated('u1', 'Ada Lovelace'),
      userCreated('u2', 'Grace Hopper'),
      organizationCreated('o1', 'Acme'),
      recorded('MemberAdded', { organizationId: 'o1', userId: 'u2', role: 'read', joinedAt: t }, byAda),
      recorded(
        'MemberRoleChanged',
        { organizationId: 'o1', userId: 'u2', role: 'edit', changedAt: t },
        byAda,
      ),
      // A user the log never saw created: no label to give.
      recorded('MemberAdded', { organizationId: 'o1', userId: 'u9', role: 'read', joinedAt: t }, byAda),
    );
    const grace = { type: 'member', id: 'u2', label: 'Grace Hopper' };
    await scenario.thenDocuments(AUDIT_ENTRIES, [
      entry(scenario, 2, 'o1', { type: 'organization', id: 'o1', label: 'Acme' }),
      entry(scenario, 3, 'o1', grace),
      entry(scenario, 4, 'o1', grace),
      entry(scenario, 5, 'o1', { type: 'member', id: 'u9', label: null }),
    ]);
    await scenario.thenDocuments(AUDIT_RESOURCES, [
      { id: 'organization:o1', organization: 'o1', label: 'Acme' },
      { id: 'user:u1', organization: null, label: 'Ada Lovelace' },
      { id: 'user:u2', organization: null, label: 'Grace Hopper' },
    ]);
  });

  it('records collection events in the organization the register holds, with the label it holds', async () => {
    const scenario = audit.given(
      userCreated('u1', 'Ada Lovelace'),
      collectionCreated('c1', 'o1', null, 'Guides'),
      recorded(
        'CollectionUpdated',
        { collectionId: 'c1', changes: { description: 'How to' }, updatedAt: t },
        byAda,
      ),
      recorded(
        'CollectionUpdated',
        { collectionId: 'c1', changes: { title: 'Manuals' }, updatedAt: t },
        byAda,
      ),
      recorded('CollectionMoved', { collectionId: 'c1', parent: 'c0', position: 2, movedAt: t }, byAda),
      recorded(
        'CollectionDeleted',
        { collectionId: 'c1', organization: 'o1', parent: 'c0', deletedAt: t },
        byAda,
      ),
    );
    const named = (label: string) => ({ type: 'collection', id: 'c1', label });
    await scenario.thenDocuments(AUDIT_ENTRIES, [
      entry(scenario, 1, 'o1', named('Guides')),
      entry(scenario, 2, 'o1', named('Guides')),
      entry(scenario, 3, 'o1', named('Manuals')),
      entry(scenario, 4, 'o1', named('Manuals')),
      entry(scenario, 5, 'o1', named('Manuals')),
    ]);
    await scenario.thenDocuments(AUDIT_RESOURCES, [
      { id: 'collection:c1', organization: 'o1', label: 'Manuals' },
      { id: 'user:u1', organization: null, label: 'Ada Lovelace' },
    ]);
  });

  it('records space events, a purge by the system with the deletion as its cause', async () => {
    const scenario = audit.given(
      userCreated('u1', 'Ada Lovelace'),
      spaceCreated('s1', 'o1', 'c1', 'Handbook'),
      recorded('SpaceUpdated', { spaceId: 's1', changes: { title: 'Manual' }, updatedAt: t }, byAda),
      recorded('SpaceMoved', { spaceId: 's1', parent: null, position: 1, movedAt: t }, byAda),
      recorded('SpaceDeleted', { spaceId: 's1', deletedAt: t, purgeAfter: t }, byAda),
      recorded('SpaceRestored', { spaceId: 's1', restoredAt: t }, byAda),
      recorded('SpaceDeleted', { spaceId: 's1', deletedAt: t, purgeAfter: t }, byAda),
      recorded(
        'SpacePurged',
        { spaceId: 's1', purgedAt: t },
        { metadata: { causationId: '00000000-0000-4000-8000-000000000007' } },
      ),
    );
    const space = (label: string) => ({ type: 'space', id: 's1', label });
    const purge = entry(scenario, 7, 'o1', space('Manual'), system);
    expect(purge).toMatchObject({ source: 'workflow', actorType: 'system' });
    await scenario.thenDocuments(AUDIT_ENTRIES, [
      entry(scenario, 1, 'o1', space('Handbook')),
      ...[2, 3, 4, 5, 6].map((i) => entry(scenario, i, 'o1', space('Manual'))),
      purge,
    ]);
    // The register outlives the space: later events about it (none yet) would still find their organization.
    await scenario.thenDocuments(AUDIT_RESOURCES, [
      { id: 'space:s1', organization: 'o1', label: 'Manual' },
      { id: 'user:u1', organization: null, label: 'Ada Lovelace' },
    ]);
  });

  it('records a space transfer in both organizations and follows the space to its new one', async () => {
    const scenario = audit.given(
      userCreated('u1', 'Ada Lovelace'),
      spaceCreated('s1', 'o1', null, 'Handbook'),
      recorded(
        'SpaceTransferred',
        {
          spaceId: 's1',
          fromOrganization: 'o1',
          organization: 'o2',
          parent: null,
          position: 0,
          transferredAt: t,
        },
        byAda,
      ),
      recorded('SpaceUpdated', { spaceId: 's1', changes: { emoji: '📘' }, updatedAt: t }, byAda),
    );
    const space = { type: 'space', id: 's1', label: 'Handbook' };
    await scenario.thenDocuments(AUDIT_ENTRIES, [
      entry(scenario, 1, 'o1', space),
      entry(scenario, 2, 'o1', space),
      entry(scenario, 2, 'o2', space),
      entry(scenario, 3, 'o2', space),
    ]);
    await scenario.thenDocuments(AUDIT_RESOURCES, [
      { id: 'space:s1', organization: 'o2', label: 'Handbook', moves: [{ at: 3, from: 'o1' }] },
      { id: 'user:u1', organization: null, label: 'Ada Lovelace' },
    ]);
  });

  it('records a collection transfer in both organizations and moves what it carries in the register', async () => {
    const scenario = audit.given(
      userCreated('u1', 'Ada Lovelace'),
      collectionCreated('c1', 'o1', null, 'Guides'),
      collectionCreated('c2', 'o1', 'c1', 'Deep'),
      spaceCreated('s1', 'o1', 'c2', 'Handbook'),
      spaceCreated('s2', 'o1', null, 'Elsewhere'),
      recorded(
        'CollectionTransferred',
        {
          collectionId: 'c1',
          fromOrganization: 'o1',
          organization: 'o2',
          position: 0,
          // s9: carried, though the log never saw it created (its register entry starts here).
          contents: { collections: ['c2'], spaces: ['s1', 's9'] },
          transferredAt: t,
        },
        byAda,
      ),
      recorded('SpaceUpdated', { spaceId: 's1', changes: { title: 'Manual' }, updatedAt: t }, byAda),
      recorded('SpaceUpdated', { spaceId: 's2', changes: { title: 'Still here' }, updatedAt: t }, byAda),
    );
    const guides = { type: 'collection', id: 'c1', label: 'Guides' };
    await scenario.thenDocuments(AUDIT_ENTRIES, [
      entry(scenario, 1, 'o1', guides),
      entry(scenario, 2, 'o1', { type: 'collection', id: 'c2', label: 'Deep' }),
      entry(scenario, 3, 'o1', { type: 'space', id: 's1', label: 'Handbook' }),
      entry(scenario, 4, 'o1', { type: 'space', id: 's2', label: 'Elsewhere' }),
      entry(scenario, 5, 'o1', guides),
      entry(scenario, 5, 'o2', guides),
      entry(scenario, 6, 'o2', { type: 'space', id: 's1', label: 'Manual' }),
      entry(scenario, 7, 'o1', { type: 'space', id: 's2', label: 'Still here' }),
    ]);
    await scenario.thenDocuments(AUDIT_RESOURCES, [
      // Position 6 is the transfer (after UserCreated): before it, all three were in o1.
      { id: 'collection:c1', organization: 'o2', label: 'Guides', moves: [{ at: 6, from: 'o1' }] },
      { id: 'collection:c2', organization: 'o2', label: 'Deep', moves: [{ at: 6, from: 'o1' }] },
      { id: 'space:s1', organization: 'o2', label: 'Manual', moves: [{ at: 6, from: 'o1' }] },
      { id: 'space:s2', organization: 'o1', label: 'Still here' },
      { id: 'space:s9', organization: 'o2', label: null },
      { id: 'user:u1', organization: null, label: 'Ada Lovelace' },
    ]);
  });

  it('records nothing for a resource whose creation it never saw: there is no organization to blame', async () => {
    const scenario = audit.given(
      recorded('SpaceUpdated', { spaceId: 's9', changes: { title: 'Lost' }, updatedAt: t }),
      recorded('CollectionMoved', { collectionId: 'c9', parent: null, position: 0, movedAt: t }),
    );
    await scenario.thenDocuments(AUDIT_ENTRIES, []);
    await scenario.thenDocuments(AUDIT_RESOURCES, []);
  });

  it('labels the actor null when its user was never seen, and the system when no user acted', async () => {
    const scenario = audit.given(
      recorded(
        'OrganizationCreated',
        { organizationId: 'o1', title: 'Acme', emailDomains: [], createdBy: 'u7', createdAt: t },
        {
          metadata: { actor: { userId: 'u7', source: 'script' } },
        },
      ),
      recorded('MemberAdded', { organizationId: 'o1', userId: 'u7', role: 'admin', joinedAt: t }),
    );
    const [created, added] = await scenario.documents(AUDIT_ENTRIES);
    expect([created.actorType, created.actorId, created.actorLabel, created.source]).toEqual([
      'user',
      'u7',
      null,
      'script',
    ]);
    expect([added.actorType, added.actorId, added.actorLabel, added.source]).toEqual([
      'system',
      SYSTEM_ACTOR,
      null,
      'workflow',
    ]);
  });

  it('changes nothing when the events are replayed, and a rebuild gives the same views', async () => {
    const scenario = audit.given(
      userCreated('u1', 'Ada Lovelace'),
      userCreated('u2', 'Grace Hopper'),
      organizationCreated('o1', 'Acme'),
      recorded('MemberAdded', { organizationId: 'o1', userId: 'u2', role: 'read', joinedAt: t }, byAda),
      recorded(
        'MemberRoleChanged',
        { organizationId: 'o1', userId: 'u2', role: 'edit', changedAt: t },
        byAda,
      ),
      collectionCreated('c1', 'o1', null, 'Guides'),
      collectionCreated('c2', 'o1', 'c1', 'Deep'),
      spaceCreated('s1', 'o1', 'c2', 'Handbook'),
      spaceCreated('s2', 'o1', null, 'Notes'),
      recorded(
        'CollectionTransferred',
        {
          collectionId: 'c1',
          fromOrganization: 'o1',
          organization: 'o2',
          position: 0,
          contents: { collections: ['c2'], spaces: ['s1'] },
          transferredAt: t,
        },
        byAda,
      ),
      recorded(
        'SpaceTransferred',
        {
          spaceId: 's2',
          fromOrganization: 'o1',
          organization: 'o2',
          parent: 'c1',
          position: 1,
          transferredAt: t,
        },
        byAda,
      ),
      recorded('SpaceUpdated', { spaceId: 's1', changes: { title: 'Manual' }, updatedAt: t }, byAda),
      recorded(
        'CollectionUpdated',
        { collectionId: 'c2', changes: { title: 'Deeper' }, updatedAt: t },
        byAda,
      ),
      recorded('SpaceMoved', { spaceId: 's2', parent: 'c2', position: 0, movedAt: t }, byAda),
      recorded('SpaceDeleted', { spaceId: 's1', deletedAt: t, purgeAfter: t }, byAda),
      recorded('SpaceRestored', { spaceId: 's1', restoredAt: t }, byAda),
      recorded('SpaceDeleted', { spaceId: 's1', deletedAt: t, purgeAfter: t }, byAda),
      recorded('SpacePurged', { spaceId: 's1', purgedAt: t }),
      recorded('CollectionMoved', { collectionId: 'c2', parent: null, position: 3, movedAt: t }, byAda),
      recorded(
        'CollectionDeleted',
        { collectionId: 'c2', organization: 'o2', parent: null, deletedAt: t },
        byAda,
      ),
    );
    await scenario.thenReplayChangesNothing();
    await scenario.thenRebuildMatches();
  });

  it('gives the same views when an event of a resource later transferred is rebuilt', async () => {
    await audit.given(...updatedThenTransferred()).thenRebuildMatches();
  });

  /**
   * An event whose subject names no organization (an update, a move, a deletion) is filed where the
   * register says its resource was at that event: replayed over views that already include a later
   * transfer (MongoDB commits a batch's writes before its checkpoint, not atomically), it must not be
   * filed again in the destination, under an id the replay guard has never seen.
   */
  it('changes nothing when an event is replayed over a later transfer of its resource', async () => {
    await audit.given(...updatedThenTransferred()).thenReplayChangesNothing();
  });
});

/** A space updated in o1, then transferred to o2. */
function updatedThenTransferred() {
  return [
    spaceCreated('s1', 'o1', null, 'Handbook'),
    recorded('SpaceUpdated', { spaceId: 's1', changes: { emoji: '📘' }, updatedAt: t }, byAda),
    recorded(
      'SpaceTransferred',
      {
        spaceId: 's1',
        fromOrganization: 'o1',
        organization: 'o2',
        parent: null,
        position: 0,
        transferredAt: t,
      },
      byAda,
    ),
  ];
}
