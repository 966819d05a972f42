import { ID_PATTERN } from '@app/platform/domain/ids';
import { BooleanQuery, NotServed, Text } from '@app/platform/http/fields';
import { ListQueryDto } from '@app/platform/http/pagination';
import { IsAbsentOr } from '@app/platform/http/validation';
import { BodyExample } from '@app/platform/openapi/body-example';
import { Type } from 'class-transformer';
import { IsIn, IsObject, IsString, Matches, MinLength, ValidateIf, ValidateNested } from 'class-validator';
import { CONDITION_MAX } from '../domain/adaptive-condition';
import { ICON_MAX, PATH_MAX, SECTION_DESCRIPTION_MAX, TITLE_MAX, TITLE_MIN } from '../domain/site.decider';
import type { SiteSpaceListQuery } from '../read/site-structure.queries';
import type {
  AddSiteSectionInput,
  AddSiteSpaceInput,
  UpdateSiteSpaceBody,
} from '../write/site-structure.commands';

const anId = (what: string) => Matches(ID_PATTERN, { message: `$property must be the id of a ${what}` });
/** Set, or null to remove: absent leaves it. */
const nullable = () => ValidateIf((_o, value) => value !== undefined && value !== null);

/** An adaptive content condition, checked by the site against its adaptive schema; null removes it. */
const condition = (): PropertyDecorator => (target, key) => {
  nullable()(target, key);
  Text(CONDITION_MAX, { lines: true })(target, key);
  MinLength(1)(target, key);
};

const DRAFT = 'drafts of a site are not served here: every site space and section is live';
const PAGE = 'a custom home page of a site space is not served here';
const TEMPLATE = 'there is no catalog of space templates here';
const GROUPS = 'section groups are not served here';
const LOCALIZED = 'localized titles and descriptions are not served here';

export class SiteSpaceListQueryDto extends ListQueryDto implements SiteSpaceListQuery {
  @BooleanQuery()
  default?: boolean;

  @NotServed('share links of a site are not served by this listing yet')
  shareKey?: unknown;
}

export class SiteSectionListQueryDto extends ListQueryDto {
  @NotServed('share links of a site are not served by this listing yet')
  shareKey?: unknown;
}

export class SiteStructureQueryDto {
  @NotServed('share links of a site are not served by the structure yet')
  shareKey?: unknown;
}

export class AddSiteSpaceDto implements AddSiteSpaceInput {
  /** An existing space of the organization (GitBook's null, a new space, is not served). */
  @IsString({ message: 'spaceId must be the id of a space: creating a new space here is not served' })
  @anId('space')
  spaceId: string;

  @IsAbsentOr()
  @IsString()
  @anId('site section')
  sectionId?: string;

  @NotServed(TEMPLATE)
  template?: unknown;

  @NotServed(DRAFT)
  draft?: unknown;

  @NotServed(PAGE)
  pageId?: unknown;

  @NotServed('a site space takes its title from its space here')
  title?: unknown;
}

export class UpdateSiteSpaceDto implements UpdateSiteSpaceBody {
  @IsAbsentOr()
  @Text(PATH_MAX)
  @MinLength(1)
  path?: string;

  @IsAbsentOr()
  @IsString()
  @anId('space')
  spaceId?: string;

  @condition()
  condition?: string | null;

  @NotServed(PAGE)
  pageId?: unknown;

  @NotServed('hiding a site space from the navigation is not served here')
  hidden?: unknown;

  @NotServed(DRAFT)
  draft?: unknown;
}

export class AddSiteSectionDto implements AddSiteSectionInput {
  @IsString({ message: 'spaceId must be the id of a space: creating a new space here is not served' })
  @anId('space')
  spaceId: string;

  /** Absent or null: the title of its space. */
  @nullable()
  @Text(TITLE_MAX)
  @MinLength(TITLE_MIN)
  title?: string | null;

  @nullable()
  @Text(ICON_MAX)
  icon?: string | null;

  @NotServed(TEMPLATE)
  template?: unknown;

  @NotServed(DRAFT)
  draft?: unknown;

  @NotServed(PAGE)
  pageId?: unknown;

  @NotServed(GROUPS)
  siteSectionGroupId?: unknown;
}

export class UpdateSiteSectionDto {
  @IsAbsentOr()
  @Text(TITLE_MAX)
  @MinLength(TITLE_MIN)
  title?: string;

  @IsAbsentOr()
  @Text(PATH_MAX)
  @MinLength(1)
  path?: string;

  /** One of the section's site spaces (checked by the site: 400 naming the field otherwise). */
  @IsAbsentOr()
  @IsString()
  @anId('site space')
  defaultSiteSpace?: string;

  /** null removes it. */
  @nullable()
  @Text(ICON_MAX)
  icon?: string | null;

  /** null removes it. */
  @nullable()
  @Text(SECTION_DESCRIPTION_MAX)
  description?: string | null;

  @condition()
  condition?: string | null;

  @NotServed(LOCALIZED)
  localizedTitle?: unknown;

  @NotServed(LOCALIZED)
  localizedDescription?: unknown;

  @NotServed(DRAFT)
  draft?: unknown;

  @NotServed(GROUPS)
  siteSectionGroupId?: unknown;
}

export class SiteSpacePointerDto {
  @IsIn(['site-space'])
  type: 'site-space';

  @IsString()
  @anId('site space')
  siteSpace: string;
}

export class SiteSectionPointerDto {
  @IsIn(['site-section'])
  type: 'site-section';

  @IsString()
  @anId('site section')
  siteSection: string;
}

export class SiteSpacePositionDto {
  @IsAbsentOr()
  @IsObject()
  @ValidateNested()
  @Type(() => SiteSpacePointerDto)
  before?: SiteSpacePointerDto;

  @IsAbsentOr()
  @IsObject()
  @ValidateNested()
  @Type(() => SiteSpacePointerDto)
  after?: SiteSpacePointerDto;
}

export class SiteSectionPositionDto {
  @IsAbsentOr()
  @IsObject()
  @ValidateNested()
  @Type(() => SiteSectionPointerDto)
  before?: SiteSectionPointerDto;

  @IsAbsentOr()
  @IsObject()
  @ValidateNested()
  @Type(() => SiteSectionPointerDto)
  after?: SiteSectionPointerDto;
}

/** Without a position, to the end. */
export class MoveSiteSpaceDto {
  @IsAbsentOr()
  @IsObject()
  @ValidateNested()
  @Type(() => SiteSpacePositionDto)
  position?: SiteSpacePositionDto;
}

export class MoveSiteSectionDto {
  @IsAbsentOr()
  @IsObject()
  @ValidateNested()
  @Type(() => SiteSectionPositionDto)
  position?: SiteSectionPositionDto;
}

export const STRUCTURE_ITEM_TYPES = [
  'site-space',
  'site-section',
  'site-section-group',
  'site-external-link',
] as const;

export class SiteStructurePointerDto {
  @IsIn(STRUCTURE_ITEM_TYPES)
  type: (typeof STRUCTURE_ITEM_TYPES)[number];

  @IsString()
  @anId('site structure item')
  id: string;
}

export class SiteStructurePositionDto {
  @IsAbsentOr()
  @IsObject()
  @ValidateNested()
  @Type(() => SiteStructurePointerDto)
  before?: SiteStructurePointerDto;

  @IsAbsentOr()
  @IsObject()
  @ValidateNested()
  @Type(() => SiteStructurePointerDto)
  after?: SiteStructurePointerDto;
}

@BodyExample({ item: { type: 'site-space', id: 'siteSpaceNotThere01' }, position: {} })
export class SortSiteStructureDto {
  @IsObject()
  @ValidateNested()
  @Type(() => SiteStructurePointerDto)
  item: SiteStructurePointerDto;

  @IsObject()
  @ValidateNested()
  @Type(() => SiteStructurePositionDto)
  position: SiteStructurePositionDto;
}
