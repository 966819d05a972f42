import type { CollectionContents } from '@app/collections/domain/collection.decider';
import type { RecordedEvent } from '@app/platform/eventstore/event-store.port';
import { type ProjectionContext, projection } from '@app/platform/projector/projection';
import type { Doc } from '@app/platform/readstore/read-store.port';
import { type ActorType, auditEntry, type Labelled, SYSTEM_ACTOR } from '../domain/audit-entry';
import { AUDITED_TYPES, type AuditedType, subjectOf } from '../domain/audited-events';

export const AUDIT_EVENTS = 'audit_events';
export const AUDIT_RESOURCES = 'audit_resources';

/**
 * The audit log's own register of resources: which organization each belongs to and its label.
 * Other views are not consulted because they forget (a purge deletes the space document) and because
 * the CLI tail runs this projection without any view; only this projection writes it.
 */
export interface AuditResourceDoc extends Doc {
  organization: string | null;
  label: string | null;
}

type Registered = 'organization' | 'collection' | 'space' | 'user';
const resourceKey = (type: Registered, id: string) => `${type}:${id}`;

/** Registers the resource's organization and label; `known` is its entry when the caller has read it. */
async function remember(
  ctx: ProjectionContext,
  type: Registered,
  id: string,
  next: { organization: string | null; label: string | null },
  known?: AuditResourceDoc | null,
): Promise<void> {
  const key = resourceKey(type, id);
  const current = known === undefined ? await ctx.get<AuditResourceDoc>(AUDIT_RESOURCES, key) : known;
  // Writes only on change: most events neither rename nor move their resource.
  if (current && current.organization === next.organization && current.label === next.label) return;
  await ctx.put(AUDIT_RESOURCES, { id: key, ...next });
}

async function userLabel(ctx: ProjectionContext, userId: string): Promise<string | null> {
  return (await ctx.get<AuditResourceDoc>(AUDIT_RESOURCES, resourceKey('user', userId)))?.label ?? null;
}

async function actorOf(event: RecordedEvent, ctx: ProjectionContext): Promise<Labelled<ActorType>> {
  const { userId } = event.metadata.actor;
  if (!userId) return { type: 'system', id: SYSTEM_ACTOR, label: null };
  return { type: 'user', id: userId, label: await userLabel(ctx, userId) };
}

/**
 * Records `event` in the organization its resource belonged to at that event, and updates the
 * register. A transfer is recorded in both organizations under the same id: the source loses the
 * resource and the destination gains it, and each log must explain its own content; the acting user
 * administers both, so neither learns anything it could not already see.
 */
async function record(event: RecordedEvent, ctx: ProjectionContext): Promise<void> {
  const subject = subjectOf(event.type as AuditedType, event.data);
  const registered = subject.type === 'member' ? null : subject.type;
  const known = registered
    ? await ctx.get<AuditResourceDoc>(AUDIT_RESOURCES, resourceKey(registered, subject.id))
    : null;
  const organization = subject.organization ?? known?.organization;
  // Only a log that lost the resource's creation gets here; there is no organization to blame.
  if (!organization) return;
  const label = registered ? (subject.label ?? known?.label ?? null) : await userLabel(ctx, subject.id);
  const target = { type: subject.type, id: subject.id, label: label || null };
  const actor = await actorOf(event, ctx);
  for (const org of subject.destination ? [organization, subject.destination] : [organization]) {
    await ctx.put(AUDIT_EVENTS, auditEntry(event, org, target, actor));
  }
  if (registered) {
    const next = { organization: subject.destination ?? organization, label: target.label };
    await remember(ctx, registered, subject.id, next, known);
  }
  if (event.type === 'CollectionTransferred' && subject.destination) {
    const { contents } = event.data as { contents: CollectionContents };
    await moveAll(ctx, 'collection', contents.collections, subject.destination);
    await moveAll(ctx, 'space', contents.spaces, subject.destination);
  }
}

/** Everything below a transferred collection moves with it, as the collection's projection does. */
async function moveAll(
  ctx: ProjectionContext,
  type: 'collection' | 'space',
  ids: string[],
  organization: string,
): Promise<void> {
  for (const id of ids) {
    const known = await ctx.get<AuditResourceDoc>(AUDIT_RESOURCES, resourceKey(type, id));
    await remember(ctx, type, id, { organization, label: known?.label ?? null });
  }
}

/**
 * The audit log: one entry per domain event that touches an organization's resources, in the
 * organization the resource belonged to at that event. User events touch no organization and only
 * feed the register with display names.
 *
 * Listing reads `(organization[, action | actorId | targetId], sortKey)` newest first; the indexes
 * match those queries so every page is one range scan. They are unique: a sort key holds the event's
 * log position, and an event has one entry per organization.
 */
export const auditProjection = projection(
  'audit',
  [
    { collection: AUDIT_EVENTS, fields: ['organization', 'sortKey'], unique: true },
    { collection: AUDIT_EVENTS, fields: ['organization', 'action', 'sortKey'], unique: true },
    { collection: AUDIT_EVENTS, fields: ['organization', 'actorId', 'sortKey'], unique: true },
    { collection: AUDIT_EVENTS, fields: ['organization', 'targetId', 'sortKey'], unique: true },
  ],
  {
    UserCreated: async (e, ctx) => {
      await remember(ctx, 'user', e.data.userId, { organization: null, label: e.data.displayName });
    },
    ...Object.fromEntries(AUDITED_TYPES.map((type) => [type, record])),
  },
  // Self-contained (it reads no other view), so this projection can be rebuilt on its own.
  [AUDIT_EVENTS, AUDIT_RESOURCES],
);
