import { ListQueryDto } from '@app/platform/http/pagination';
import { IsAbsentOr } from '@app/platform/http/validation';
import { IsIn } from 'class-validator';
import { LINK_STATUSES, type LinkStatus } from '../domain';
import type { LinksQuery } from '../read/links.queries';

export class LinksQueryDto extends ListQueryDto implements LinksQuery {
  @IsAbsentOr()
  @IsIn([...LINK_STATUSES])
  status?: LinkStatus;
}
