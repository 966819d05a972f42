import type { UserEvent } from '@app/identity/domain/user.decider';
import type { Subject } from '@app/platform/domain/audit-subject';
import type { DomainEvent } from '@app/platform/domain/decider';
import type { RecordedEvent } from '@app/platform/eventstore/event-store.port';
import {
  type Projection,
  type ProjectionContext,
  type ProjectionHandler,
  projection,
} from '@app/platform/projector/projection';
import { collectionName, type Doc } from '@app/platform/readstore/read-store.port';
import {
  type ActorType,
  type AuditEntry,
  auditEntry,
  type Labelled,
  SYSTEM_ACTOR,
} from '../domain/audit-entry';
import type { AuditCatalog } from '../domain/audited-events';

/**
 * The audit log's own register of resources: which organization each belongs to and its label.
 * Other views are not consulted because they forget (a purge deletes the space document) and because
 * the CLI tail runs this projection without any view; only this projection writes it.
 */
export interface AuditResourceDoc extends Doc {
  organization: string | null;
  label: string | null;
  /**
   * The organizations it left: at which log position, and which organization it was in before, oldest
   * first; absent until it moves. An event replayed after a crash finds the register ahead of it, and must
   * still be filed where the resource was at that event, not where it went since. (Objects, not pairs:
   * some MongoDB-wire servers do not store arrays of arrays.)
   */
  moves?: { at: number; from: string }[];
}

/** The organization the registered resource belonged to at log position `position`. */
function organizationAt(known: AuditResourceDoc, position: number): string | null {
  const later = known.moves?.find((move) => move.at > position);
  return later ? later.from : known.organization;
}

export const AUDIT_ENTRIES = collectionName<AuditEntry>('audit_entries');
export const AUDIT_RESOURCES = collectionName<AuditResourceDoc>('audit_resources');
/**
 * Where entries were kept before their actions came from the resources the manifests declare (when
 * `ChangeRequestCreated` was `change.request_created`). Declared so that a rebuild of this projection
 * empties it; holding documents, it starts that rebuild (`backfillWhen`).
 */
const EARLIER_ENTRIES = ['audit_events'];

/** Resources are registered by kind and id; users too, for the labels of actors and members. */
const resourceKey = (type: string, id: string) => `${type}:${id}`;

/**
 * Registers the resource's organization and label as of the event at `position`; `known` is its entry
 * when the caller has read it.
 */
async function remember(
  ctx: ProjectionContext,
  position: number,
  type: string,
  id: string,
  next: { organization: string | null; label: string | null },
  known?: AuditResourceDoc | null,
): Promise<void> {
  const key = resourceKey(type, id);
  const current = known === undefined ? await ctx.get(AUDIT_RESOURCES, key) : known;
  // Writes only on change: most events neither rename nor move their resource.
  if (current && current.organization === next.organization && current.label === next.label) return;
  const left = current?.organization;
  const moves =
    left && left !== next.organization
      ? [...(current?.moves ?? []), { at: position, from: left }]
      : current?.moves;
  await ctx.put(AUDIT_RESOURCES, { id: key, ...next, ...(moves ? { moves } : {}) });
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
async function record(
  event: RecordedEvent,
  action: string,
  subject: Subject,
  ctx: ProjectionContext,
): Promise<void> {
  // A member is labelled by its user, whose register entry `UserCreated` keeps.
  const registered = subject.type === 'member' ? null : subject.type;
  const known = registered
    ? await ctx.get<AuditResourceDoc>(AUDIT_RESOURCES, resourceKey(registered, subject.id))
    : null;
  const organization = subject.organization ?? (known ? organizationAt(known, event.position) : null);
  // Only a log that lost the resource's creation gets here; there is no organization to blame.
  if (!organization) return;
  const label = registered ? (subject.label ?? known?.label ?? null) : await userLabel(ctx, subject.id);
  const target = { type: subject.type, id: subject.id, label: label || null };
  const actor = await actorOf(event, ctx);
  for (const org of subject.destination ? [organization, subject.destination] : [organization]) {
    await ctx.put(AUDIT_ENTRIES, auditEntry(event, action, org, target, actor));
  }
  if (registered) {
    const next = { organization: subject.destination ?? organization, label: target.label };
    await remember(ctx, event.position, registered, subject.id, next, known);
  }
  // What a transfer takes along (everything below a collection) moves with it, as its own views do.
  if (subject.destination) {
    for (const { type, id } of subject.carries ?? []) {
      const carried = await ctx.get<AuditResourceDoc>(AUDIT_RESOURCES, resourceKey(type, id));
      await remember(ctx, event.position, type, id, {
        organization: subject.destination,
        label: carried?.label ?? null,
      });
    }
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
export function auditProjection(catalog: AuditCatalog): Projection {
  const recordIt = (event: RecordedEvent, ctx: ProjectionContext) =>
    record(event, catalog.actionOf(event.type), catalog.subjectOf(event.type, event.data), ctx);
  // The audited types are the features' (known at run time): their handler takes any event, its data
  // unread (`unknown`) and handed to the subject reader its feature declared.
  const audited: Record<string, ProjectionHandler<DomainEvent>> = Object.fromEntries(
    catalog.types.map((type) => [type, recordIt]),
  );
  return {
    ...projection<UserEvent>(
      'audit',
      [
        { collection: AUDIT_ENTRIES, fields: ['organization', 'sortKey'], unique: true },
        { collection: AUDIT_ENTRIES, fields: ['organization', 'action', 'sortKey'], unique: true },
        { collection: AUDIT_ENTRIES, fields: ['organization', 'actorId', 'sortKey'], unique: true },
        { collection: AUDIT_ENTRIES, fields: ['organization', 'targetId', 'sortKey'], unique: true },
      ],
      {
        UserCreated: async (e, ctx) => {
          await remember(ctx, e.position, 'user', e.data.userId, {
            organization: null,
            label: e.data.displayName,
          });
        },
        ...audited,
      },
      // Self-contained (it reads no other view), so this projection can be rebuilt on its own.
      [AUDIT_ENTRIES, AUDIT_RESOURCES, ...EARLIER_ENTRIES],
    ),
    // Views whose entries hold the earlier actions are rebuilt once, from the log.
    backfillWhen: { own: AUDIT_ENTRIES, witnesses: EARLIER_ENTRIES },
  };
}
