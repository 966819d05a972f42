import { Text } from '@app/platform/http/fields';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsRFC3339, Max, Min } from 'class-validator';
import type { AuditEventsQuery } from '../read/audit.queries';

export const MAX_AUDIT_PAGE_SIZE = 100;

export class AuditEventsQueryDto implements AuditEventsQuery {
  @IsOptional()
  @Text(512)
  page?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_AUDIT_PAGE_SIZE)
  limit?: number;

  /** Events at or after this time. */
  @IsOptional()
  @IsRFC3339({ message: 'from must be an RFC 3339 date-time' })
  from?: string;

  /** Events at or before this time. */
  @IsOptional()
  @IsRFC3339({ message: 'to must be an RFC 3339 date-time' })
  to?: string;

  @IsOptional()
  @Text(100)
  action?: string;

  /** An actor id: a user id, or `system`. */
  @IsOptional()
  @Text(100)
  actor?: string;

  /** A target id: an organization, member (user), collection or space id. */
  @IsOptional()
  @Text(100)
  target?: string;
}
