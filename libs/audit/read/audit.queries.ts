import { Access, type Viewer } from '@app/platform/auth/access';
import { notFound } from '@app/platform/domain/decider';
import { decodePage, encodePage } from '@app/platform/http/pagination';
import { READ_STORE, type ReadStore, type Scalar } from '@app/platform/readstore/read-store.port';
import { Inject, Injectable } from '@nestjs/common';
import { type AuditEntry, entryId } from '../domain/audit-entry';
import { AUDIT_ACTIONS } from '../domain/audited-events';
import { type AuditEventsQueryDto, DEFAULT_AUDIT_PAGE_SIZE } from '../http/audit.dto';
import { AuditPresenter } from '../http/audit.presenter';
import { AUDIT_EVENTS } from './audit.projection';
import { cutPage, startCursor, timeWindow } from './audit-page';

/** The audit log is for organization admins: other members get 403, everyone else 404. */
@Injectable()
export class AuditQueries {
  constructor(
    @Inject(READ_STORE) private readonly views: ReadStore,
    private readonly access: Access,
    private readonly presenter: AuditPresenter,
  ) {}

  private admin(organization: string, viewer: Viewer) {
    return this.access.require(organization, viewer, 'admin', 'Organization', 'read its audit log');
  }

  async list(organization: string, query: AuditEventsQueryDto, viewer: Viewer) {
    await this.admin(organization, viewer);
    const limit = query.limit ?? DEFAULT_AUDIT_PAGE_SIZE;
    const window = timeWindow(query.from, query.to);
    const where: Record<string, Scalar> = {
      organization,
      ...(query.action === undefined ? {} : { action: query.action }),
      ...(query.actor === undefined ? {} : { actorId: query.actor }),
      ...(query.target === undefined ? {} : { targetId: query.target }),
    };
    const scanned = await this.views.find<AuditEntry>(AUDIT_EVENTS, {
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

  async get(organization: string, auditEventId: string, viewer: Viewer) {
    await this.admin(organization, viewer);
    const entry = await this.views.get<AuditEntry>(AUDIT_EVENTS, entryId(organization, auditEventId));
    if (!entry) throw notFound('Audit event not found');
    return this.presenter.details(entry);
  }

  async actions(organization: string, viewer: Viewer) {
    await this.admin(organization, viewer);
    return { items: AUDIT_ACTIONS.map((action) => this.presenter.action(action)) };
  }
}
