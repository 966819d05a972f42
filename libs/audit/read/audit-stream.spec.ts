import { collectionAuditSubjects } from '@app/collections/domain/collection.audit';
import { organizationAuditSubjects } from '@app/organizations/domain/organization.audit';
import type { RecordedEvent } from '@app/platform/eventstore/event-store.port';
import { spaceAuditSubjects } from '@app/spaces/domain/space.audit';
import { AuditCatalog } from '../domain/audited-events';
import { AuditStream } from './audit-stream';

let position = 0;
const event = (type: string, data: unknown, userId?: string): RecordedEvent => {
  position += 1;
  return {
    id: `00000000-0000-4000-8000-${String(position).padStart(12, '0')}`,
    type,
    data,
    stream: 'any',
    revision: 0,
    position,
    metadata: {
      schemaVersion: 1,
      occurredAt: new Date(Date.UTC(2026, 0, 1, 0, 0, position)).toISOString(),
      actor: { userId, source: userId ? 'api' : 'system' },
      correlationId: `c${position}`,
      causationId: null,
    },
  };
};

/** The audit projection reads no event of the log. */

const summary = async (stream: AuditStream, e: RecordedEvent) =>
  (await stream.push(e)).map((x) => [x.organization, x.action, x.targetId, x.targetLabel, x.actorLabel]);

const catalog = new AuditCatalog([
  { name: 'organizations', audited: organizationAuditSubjects },
  { name: 'collections', audited: collectionAuditSubjects },
  { name: 'spaces', audited: spaceAuditSubjects },
]);

describe('AuditStream (the audit projection in memory)', () => {
  it('attributes every event to the organization its resource belonged to at that event', async () => {
    const stream = new AuditStream(catalog);
    expect(await summary(stream, event('UserCreated', { userId: 'u1', displayName: 'Ada' }))).toEqual([]);
    const created = {
      id: 's1',
      organization: 'o1',
      parent: 'c1',
      title: 'Guide',
      emoji: '',
      editMode: 'live',
      defaultLevel: 'inherit',
      visibility: 'in-collection',
      revision: 'r',
      position: 0,
      createdAt: 'x',
    };
    const collection = { id: 'c1', organization: 'o1', parent: null, title: 'Box', position: 0 };
    await stream.push(event('CollectionCreated', collection, 'u1'));
    expect(await summary(stream, event('SpaceCreated', created, 'u1'))).toEqual([
      ['o1', 'space.created', 's1', 'Guide', 'Ada'],
    ]);
    const transfer = {
      collectionId: 'c1',
      fromOrganization: 'o1',
      organization: 'o2',
      position: 0,
      contents: { collections: [], spaces: ['s1'] },
      transferredAt: 'x',
    };
    expect(await summary(stream, event('CollectionTransferred', transfer, 'u1'))).toEqual([
      ['o1', 'collection.transferred', 'c1', 'Box', 'Ada'],
      ['o2', 'collection.transferred', 'c1', 'Box', 'Ada'],
    ]);
    expect(
      await summary(stream, event('SpaceUpdated', { spaceId: 's1', changes: { title: 'Manual' } }, 'u1')),
    ).toEqual([['o2', 'space.updated', 's1', 'Manual', 'Ada']]);
    expect(await summary(stream, event('SpacePurged', { spaceId: 's1', purgedAt: 'x' }))).toEqual([
      ['o2', 'space.purged', 's1', 'Manual', null],
    ]);
  });

  it('skips what it cannot attribute and what touches no organization', async () => {
    const stream = new AuditStream(catalog);
    expect(await stream.push(event('SpaceDeleted', { spaceId: 'unknown' }))).toEqual([]);
    expect(await stream.push(event('ApiTokenIssued', { userId: 'u', tokenHash: 'h' }))).toEqual([]);
    expect(await stream.push(event('SystemBootstrapped', {}))).toEqual([]);
  });
});
