import type { RecordedEvent } from '@app/platform/eventstore/event-store.port';
import { upcast } from '@app/platform/eventstore/upcasters';
import type { LogReads, Projection, ProjectionContext } from '@app/platform/projector/projection';
import { type Doc, documentKey, type Scalar } from '@app/platform/readstore/read-store.port';
import type { AuditEntry } from '../domain/audit-entry';
import type { AuditCatalog } from '../domain/audited-events';
import { AUDIT_ENTRIES, auditProjection } from './audit.projection';

/** The audit projection reads no event of the log (an entry points to its own): one that tried would be a bug. */
const NO_LOG: LogReads = {
  eventAt: async (stream, revision) => {
    throw new Error(`the audit projection reads no event of the log (asked for ${stream}@${revision})`);
  },
};

/**
 * The audit projection run in memory: each event goes through the very handlers the projector uses
 * and comes back as the entries it yields. Only the register is kept; entries are handed out, not
 * stored. Feed it the log in order from the start, since an event's organization can depend on any
 * earlier event.
 */
export class AuditStream {
  private readonly docs = new Map<string, Doc>();
  private readonly projection: Projection;
  private readonly handled: Set<string>;

  constructor(catalog: AuditCatalog) {
    this.projection = auditProjection(catalog);
    this.handled = new Set(this.projection.handles);
  }

  async push(event: RecordedEvent): Promise<AuditEntry[]> {
    if (!this.handled.has(event.type)) return [];
    const entries: AuditEntry[] = [];
    const ctx: ProjectionContext = {
      get: async <T extends Doc>(collection: string, id: string) =>
        (this.docs.get(documentKey(collection, id)) as T | undefined) ?? null,
      find: async <T extends Doc>(collection: string, where: Record<string, Scalar>) =>
        [...this.docs.entries()]
          .filter(([k]) => k.startsWith(documentKey(collection, '')))
          .map(([, doc]) => doc as T)
          .filter((doc) => Object.entries(where).every(([f, v]) => (doc[f] ?? null) === v)),
      put: async (collection, doc) => {
        if (collection === AUDIT_ENTRIES) entries.push(doc as unknown as AuditEntry);
        else this.docs.set(documentKey(collection, doc.id), doc);
      },
      delete: async (collection, id) => {
        this.docs.delete(documentKey(collection, id));
      },
      log: NO_LOG,
    };
    await this.projection.apply(upcast(event), ctx);
    return entries;
  }
}
