import { RequiresRole } from '@app/platform/auth/requires-role';
import { id } from '@app/platform/http/ids.pipe';
import { BadRequestException, Controller, Get, Param, type PipeTransform, Query } from '@nestjs/common';
import { isEventId } from '../domain/audit-entry';
import { AuditQueries } from '../read/audit.queries';
import { AuditEventsQueryDto } from './audit.dto';

/** A malformed audit event id is a 400 naming the parameter, before any lookup. */
class AuditEventIdPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (typeof value !== 'string' || !isEventId(value)) {
      throw new BadRequestException('auditEventId: must be a UUID');
    }
    return value.toLowerCase();
  }
}

const organizationId = () => Param('organizationId', id('organizationId'));

@Controller()
export class AuditController {
  constructor(private readonly queries: AuditQueries) {}

  @RequiresRole('admin')
  @Get('orgs/:organizationId/audit-events')
  list(@organizationId() org: string, @Query() query: AuditEventsQueryDto) {
    return this.queries.list(org, query);
  }

  @RequiresRole('admin')
  @Get('orgs/:organizationId/audit-events/:auditEventId')
  get(@organizationId() org: string, @Param('auditEventId', new AuditEventIdPipe()) auditEventId: string) {
    return this.queries.get(org, auditEventId);
  }

  @RequiresRole('admin')
  @Get('orgs/:organizationId/audit-event-actions')
  actions(@organizationId() _org: string) {
    return this.queries.actions();
  }
}
