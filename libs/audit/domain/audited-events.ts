import type { CollectionEvent } from '@app/collections/domain/collection.decider';
import type { OrganizationEvent } from '@app/organizations/domain/organization.decider';
import type { SpaceEvent } from '@app/spaces/domain/space.decider';
import { actionLabel, auditAction } from './actions';

/** Kinds of resources an audit event can be about (GitBook's `AuditEventTarget.type` is a free string). */
export type TargetType = 'organization' | 'member' | 'collection' | 'space';

/** What one domain event is about, as far as the event itself says. */
export interface Subject {
  type: TargetType;
  id: string;
  /** The organization the resource belonged to at the event, when the event names it. */
  organization?: string;
  /** Where a transfer takes the resource. */
  destination?: string;
  /** The resource's display label from this event on, when the event sets it. */
  label?: string;
}

/** Every event of the aggregates that live inside an organization; user events touch none. */
export type AuditedEvent = OrganizationEvent | CollectionEvent | SpaceEvent;
export type AuditedType = AuditedEvent['type'];

type SubjectReaders = {
  [T in AuditedType]: (data: Extract<AuditedEvent, { type: T }>['data']) => Subject;
};

/**
 * The subject of each audited event type. The mapped type makes a new event of these aggregates a
 * compile error until it is listed here, so no change inside an organization escapes the audit log.
 */
const SUBJECTS: SubjectReaders = {
  OrganizationCreated: (d) => ({
    type: 'organization',
    id: d.organizationId,
    organization: d.organizationId,
    label: d.title,
  }),
  MemberAdded: (d) => ({ type: 'member', id: d.userId, organization: d.organizationId }),
  MemberRoleChanged: (d) => ({ type: 'member', id: d.userId, organization: d.organizationId }),
  CollectionCreated: (d) => ({ type: 'collection', id: d.id, organization: d.organization, label: d.title }),
  CollectionUpdated: (d) => ({ type: 'collection', id: d.collectionId, label: d.changes.title }),
  CollectionMoved: (d) => ({ type: 'collection', id: d.collectionId }),
  CollectionTransferred: (d) => ({
    type: 'collection',
    id: d.collectionId,
    organization: d.fromOrganization,
    destination: d.organization,
  }),
  CollectionDeleted: (d) => ({ type: 'collection', id: d.collectionId, organization: d.organization }),
  SpaceCreated: (d) => ({ type: 'space', id: d.id, organization: d.organization, label: d.title }),
  SpaceUpdated: (d) => ({ type: 'space', id: d.spaceId, label: d.changes.title }),
  SpaceDeleted: (d) => ({ type: 'space', id: d.spaceId }),
  SpaceRestored: (d) => ({ type: 'space', id: d.spaceId }),
  SpacePurged: (d) => ({ type: 'space', id: d.spaceId }),
  SpaceMoved: (d) => ({ type: 'space', id: d.spaceId }),
  SpaceTransferred: (d) => ({
    type: 'space',
    id: d.spaceId,
    organization: d.fromOrganization,
    destination: d.organization,
  }),
};

export const AUDITED_TYPES = Object.keys(SUBJECTS) as AuditedType[];

export function isAudited(type: string): type is AuditedType {
  return Object.hasOwn(SUBJECTS, type);
}

/** The subject of an audited event; `data` is the event's data, whose shape `type` fixes. */
export function subjectOf(type: AuditedType, data: unknown): Subject {
  return (SUBJECTS[type] as (d: unknown) => Subject)(data);
}

/** Every action the audit log can hold, sorted by id: what `audit-event-actions` lists. */
export const AUDIT_ACTIONS: readonly { id: string; label: string }[] = AUDITED_TYPES.map(auditAction)
  .sort()
  .map((id) => ({ id, label: actionLabel(id) }));
