import { notFound } from '@app/platform/domain/decider';
import { EVENT_STORE, type EventStore } from '@app/platform/eventstore/event-store.port';
import { upcast } from '@app/platform/eventstore/upcasters';
import { decodePage, encodePage } from '@app/platform/http/pagination';
import { type LogReads, logReadsOf } from '@app/platform/projector/projection';
import { READ_STORE, type ReadStore, type Scalar } from '@app/platform/readstore/read-store.port';
import { arg, Remote } from '@app/platform/rpc/remote-method';
import { Inject, Injectable } from '@nestjs/common';
import { type AuditDetails, type AuditEntry, auditDetails, entryId, isEventId } from '../domain/audit-entry';
import { AUDIT_CATALOG, type AuditCatalog } from '../domain/audited-events';
import { AuditPresenter } from './audit.presenter';
import { AUDIT_ENTRIES } from './audit.projection';
import { cutPage, startCursor, timeWindow } from './audit-page';

const isEventIdText = (value: unknown): value is string => typeof value === 'string' && isEventId(value);

/** A page request of the audit log: filters, time window and page (the DTO validates them). */
export interface AuditEventsQuery {
  limit?: number;
  page?: string;
  from?: string;
  to?: string;
  action?: string;
  actor?: string;
  target?: string;
}

/** GitBook's `listOrganizationAuditEvents`: 20 by default, up to 100. */
export const DEFAULT_AUDIT_PAGE_SIZE = 20;

/** The audit log is for organization admins; the routes declare it (`@RequiresRole('admin')`). */
@Injectable()
export class AuditQueries {
  private readonly log: LogReads;

  constructor(
    @Inject(READ_STORE) private readonly views: ReadStore,
    @Inject(EVENT_STORE) events: EventStore,
    @Inject(AUDIT_CATALOG) private readonly catalog: AuditCatalog,
    private readonly presenter: AuditPresenter,
  ) {
    this.log = logReadsOf(events);
  }

  @Remote(arg.id('organization'), arg.object<AuditEventsQuery>('query'))
  async list(organization: string, query: AuditEventsQuery) {
    const limit = query.limit ?? DEFAULT_AUDIT_PAGE_SIZE;
    const window = timeWindow(query.from, query.to);
    const where: Record<string, Scalar> = {
      organization,
      ...(query.action === undefined ? {} : { action: query.action }),
      ...(query.actor === undefined ? {} : { actorId: query.actor }),
      ...(query.target === undefined ? {} : { targetId: query.target }),
    };
    const scanned = await this.views.find<AuditEntry>(AUDIT_ENTRIES, {
      where,
      orderBy: 'sortKey',
      direction: 'desc',
      after: startCursor(decodePage(query.page), window),
      limit: limit + 1,
    });
    const page = cutPage(scanned.items, limit, window.from);
    // The store counts equality matches only; within a time window that total would be wrong, so none.
    const bounded = query.from !== undefined || query.to !== undefined;
    return {
      ...(page.next ? { next: { page: encodePage(page.next) } } : {}),
      ...(bounded ? {} : { count: scanned.count }),
      items: page.items.map((entry) => this.presenter.event(entry)),
    };
  }

  @Remote(arg.id('organization'), arg.shaped('auditEventId', isEventIdText, 'a UUID'))
  async get(organization: string, auditEventId: string) {
    const entry = await this.views.get<AuditEntry>(AUDIT_ENTRIES, entryId(organization, auditEventId));
    if (!entry) throw notFound('Audit event not found');
    return this.presenter.details(entry, await this.detailsOf(entry));
  }

  /** The details of an entry's event, read from the log (entries projected before that hold them). */
  private async detailsOf(entry: AuditEntry): Promise<AuditDetails> {
    if (entry.stream === undefined) return entry as AuditEntry & AuditDetails;
    const event = await this.log.eventAt(entry.stream, entry.revision);
    if (event?.id !== entry.eventId)
      throw new Error(`audit event ${entry.eventId} is not at ${entry.stream}@${entry.revision} in the log`);
    return auditDetails(upcast(event));
  }

  @Remote()
  actions() {
    return { items: this.catalog.actions.map((action) => this.presenter.action(action)) };
  }
}
