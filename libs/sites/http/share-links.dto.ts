import { Text } from '@app/platform/http/fields';
import { ListQueryDto } from '@app/platform/http/pagination';
import { IsAbsentOr } from '@app/platform/http/validation';
import { IsBoolean, IsString, MaxLength } from 'class-validator';
import { SHARE_LINK_NAME_MAX } from '../domain/share-link.decider';
import type { ShareLinkListQuery } from '../read/share-links.queries';
import type { CreateShareLinkInput, UpdateShareLinkInput } from '../write/share-link.commands';

export class CreateShareLinkDto implements CreateShareLinkInput {
  @Text(SHARE_LINK_NAME_MAX)
  name: string;
}

export class UpdateShareLinkDto implements UpdateShareLinkInput {
  @IsAbsentOr()
  @IsBoolean()
  active?: boolean;

  @IsAbsentOr()
  @Text(SHARE_LINK_NAME_MAX)
  name?: string;
}

export class ShareLinkListQueryDto extends ListQueryDto implements ShareLinkListQuery {
  /** A part of a link's name, or its whole key. */
  @IsAbsentOr()
  @IsString()
  @MaxLength(512)
  search?: string;
}
