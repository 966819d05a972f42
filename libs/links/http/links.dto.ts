import { ListQueryDto } from '@app/platform/http/pagination';
import { IsAbsentOr } from '@app/platform/http/validation';
import { IsIn, IsString, Matches, MaxLength } from 'class-validator';
import { LINK_STATUSES, type LinkStatus } from '../domain';
import type { LinksQuery } from '../read/links.queries';

export class LinksQueryDto extends ListQueryDto implements LinksQuery {
  @IsAbsentOr()
  @IsIn([...LINK_STATUSES])
  status?: LinkStatus;
}

/** The URL of an embed: GitBook's `url` query of `getEmbedByUrl` and `getEmbedByUrlInSpace`. */
export class EmbedQueryDto {
  @IsString()
  @MaxLength(2048)
  @Matches(/^https?:\/\/\S+$/i, { message: 'url must be an http or https URL' })
  url: string;
}
