import { ID_PATTERN } from '@app/platform/domain/ids';
import { BooleanQuery, Emoji, NotServed, QueryList, Text } from '@app/platform/http/fields';
import { ListQueryDto } from '@app/platform/http/pagination';
import { IsAbsentOr } from '@app/platform/http/validation';
import { BodyExample } from '@app/platform/openapi/body-example';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsString,
  Matches,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import type { ContentChangeInput } from '../domain/changes';
import {
  type ChangeRequestStatus,
  MAX_CHANGE_REQUEST_LINKS,
  type SettableStatus,
} from '../domain/space-content.decider';
import type {
  ChangeRequestOrderBy,
  OrganizationChangeRequestsQuery,
  SpaceChangeRequestsQuery,
} from '../read/change-requests.queries';
import type {
  CreateChangeRequestInput,
  UpdateChangeRequestInput,
  UpdateContentInput,
} from '../write/change-request.commands';

const STATUSES: ChangeRequestStatus[] = ['draft', 'open', 'archived', 'merged'];
const SETTABLE: SettableStatus[] = ['draft', 'open', 'archived'];
const OPERATIONS = ['insert_page', 'update_page', 'delete_page', 'revert_page', 'insert_files'];
/** GitBook's limit on one batch of content changes. */
export const MAX_CONTENT_CHANGES = 50;

export class CreateChangeRequestDto implements CreateChangeRequestInput {
  @IsAbsentOr()
  @Text(100)
  subject?: string;

  /** GitBook's `ApplySpaceTemplate`: a template of GitBook's catalogue applied to the new change request. */
  @NotServed('space templates are not a feature of this service')
  template?: never;

  /** The agent task the change request implements. */
  @NotServed('agent tasks are not a feature of this service')
  agentTaskId?: never;
}

/** GitBook's `ContentRefURL`: where an external link points. */
export class ContentRefUrlDto {
  @IsIn(['url'])
  kind: 'url';

  @IsString()
  @MaxLength(2048)
  @Matches(/^https?:\/\/[^\s]+$/i, { message: 'url must be an http or https URL' })
  url: string;
}

/** GitBook's `ChangeRequestLinkInput`: `id` keeps one of the change request's links, without it one is added. */
export class ChangeRequestLinkDto {
  @IsAbsentOr()
  @IsString()
  @Matches(ID_PATTERN, { message: 'id must be a link id' })
  id?: string;

  @IsObject()
  @ValidateNested()
  @Type(() => ContentRefUrlDto)
  ref: ContentRefUrlDto;

  @IsAbsentOr()
  @Text(128)
  title?: string;
}

export class UpdateChangeRequestDto implements UpdateChangeRequestInput {
  @IsAbsentOr()
  @Text(100)
  subject?: string;

  @IsAbsentOr()
  @IsIn(SETTABLE)
  status?: SettableStatus;

  /** GitBook's `JSONDocument`; its structure is checked as it is recorded. */
  @IsAbsentOr()
  @IsObject()
  description?: Record<string, unknown>;

  /** The whole list of links, replacing the change request's. */
  @IsAbsentOr()
  @IsArray()
  @ArrayMaxSize(MAX_CHANGE_REQUEST_LINKS)
  @ValidateNested({ each: true })
  @Type(() => ChangeRequestLinkDto)
  links?: ChangeRequestLinkDto[];
}

const userId = () => Matches(ID_PATTERN, { message: '$property must be a user id' });
const ORDER_BY: ChangeRequestOrderBy[] = ['updatedAt', 'createdAt'];
const NO_TOPICS = 'site topics are not a feature of this service, so no change request is linked to one';

/** What both lists of change requests filter and order by. */
class ChangeRequestFiltersDto extends ListQueryDto {
  @IsAbsentOr()
  @IsString()
  @userId()
  creator?: string;

  @IsAbsentOr()
  @IsString()
  @userId()
  contributor?: string;

  @IsAbsentOr()
  @IsString()
  @userId()
  requestedReviewer?: string;

  @NotServed(NO_TOPICS)
  topic?: never;

  /** Newest first by this date; GitBook's default `updatedAt`. */
  @IsAbsentOr()
  @IsIn(ORDER_BY)
  orderBy?: ChangeRequestOrderBy;
}

export class SpaceChangeRequestsQueryDto extends ChangeRequestFiltersDto implements SpaceChangeRequestsQuery {
  @IsAbsentOr()
  @IsIn(STATUSES)
  status?: ChangeRequestStatus;
}

export class OrganizationChangeRequestsQueryDto
  extends ChangeRequestFiltersDto
  implements OrganizationChangeRequestsQuery
{
  /** Statuses, as GitBook's list (`status=open&status=draft`); absent: open ones. */
  @IsAbsentOr()
  @QueryList(STATUSES)
  status?: ChangeRequestStatus[];

  @IsAbsentOr()
  @IsString()
  @Matches(ID_PATTERN, { message: 'space must be a space id' })
  space?: string;

  @NotServed('docs sites are not a feature of this service, so no change request is linked to one')
  site?: never;

  @NotServed('style guide checks are not a feature of this service, so none opened a change request')
  styleguideRun?: never;

  /**
   * Whether change requests opened from triage findings are listed (`all`) or not (`none`, GitBook's
   * default). No change request comes from triage here, so both list the same ones.
   */
  @IsAbsentOr()
  @IsIn(['none', 'all'])
  finding?: 'none' | 'all';
}

/** A file of `insert_files`: a URL to fetch or inline bytes; the change's rules check which. */
export class ContentFileDto {
  @IsString()
  @MaxLength(256)
  name: string;

  @IsAbsentOr()
  @Text(256)
  ref?: string;

  @IsAbsentOr()
  @Text(255)
  contentType?: string;

  @IsAbsentOr()
  @IsString()
  @MaxLength(2048)
  url?: string;

  /** At most 1 MiB of bytes, as base64. */
  @IsAbsentOr()
  @IsString()
  @MaxLength(1_398_104)
  base64?: string;
}

/**
 * One change of a batch: the fields of every operation, each checked for its type here; which ones
 * an operation needs is checked when the batch is applied, naming the change by its index.
 */
export class ContentChangeDto {
  @IsIn(OPERATIONS)
  operation: ContentChangeInput['operation'];

  @IsAbsentOr()
  @IsString()
  @Matches(ID_PATTERN, { message: '$property must be a page id' })
  page?: string;

  /** Not GitBook's: insert_page with `group` inserts a page group (Git Sync's `## Group` heading). */
  @IsAbsentOr()
  @IsIn(['document', 'group'])
  type?: 'document' | 'group';

  @IsAbsentOr()
  @Text(255)
  title?: string;

  @IsAbsentOr()
  @Text(100)
  slug?: string;

  @IsAbsentOr()
  @ValidateIf((_o, v) => v !== '')
  @Emoji()
  emoji?: string;

  @IsAbsentOr()
  @Text(50)
  icon?: string;

  @IsAbsentOr()
  @Text(1000, { lines: true })
  description?: string;

  @IsAbsentOr()
  @IsBoolean()
  hidden?: boolean;

  @IsAbsentOr()
  @IsBoolean()
  noIndex?: boolean;

  @IsAbsentOr()
  @IsBoolean()
  noRobotsIndex?: boolean;

  @IsAbsentOr()
  @Text(1000)
  condition?: string;

  /** `{markdown}`, `{document}` or `{}`; its content is checked as it is converted. */
  @IsAbsentOr()
  @IsObject()
  document?: Record<string, unknown>;

  /** A parent page id; null moves an updated page to the top. */
  @ValidateIf((_o, v) => v !== undefined && v !== null)
  @IsString()
  @Matches(ID_PATTERN, { message: 'into must be a page id or null' })
  into?: string | null;

  @IsAbsentOr()
  @IsInt()
  @Min(0)
  at?: number;

  @IsAbsentOr()
  @Text(256)
  ref?: string;

  @IsAbsentOr()
  @IsString()
  @Matches(ID_PATTERN, { message: 'revision must be a revision id' })
  revision?: string;

  @IsAbsentOr()
  @IsArray()
  @ArrayMaxSize(1000)
  @IsString({ each: true })
  block?: string[];

  @IsAbsentOr()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(20)
  @ValidateNested({ each: true })
  @Type(() => ContentFileDto)
  files?: ContentFileDto[];
}

@BodyExample({
  changes: [{ operation: 'insert_page', title: 'Getting started', document: { markdown: 'Welcome.\n' } }],
})
export class UpdateContentDto implements UpdateContentInput {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_CONTENT_CHANGES)
  @ValidateNested({ each: true })
  @Type(() => ContentChangeDto)
  changes: ContentChangeInput[];
}

export class UpdateContentQueryDto {
  /** `true` (GitBook's default) answers the change request; `false` adds the pages and files changed. */
  @BooleanQuery()
  compat?: boolean;
}
