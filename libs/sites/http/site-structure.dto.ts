import { ID_PATTERN } from '@app/platform/domain/ids';
import { BooleanQuery, NotServed, Text } from '@app/platform/http/fields';
import { ListQueryDto } from '@app/platform/http/pagination';
import { IsAbsentOr } from '@app/platform/http/validation';
import { BodyExample } from '@app/platform/openapi/body-example';
import { applyDecorators } from '@nestjs/common';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsObject,
  IsString,
  Matches,
  MinLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { CONDITION_MAX } from '../domain/adaptive-condition';
import {
  GROUP_TITLE_MAX,
  ICON_MAX,
  PATH_MAX,
  SECTION_DESCRIPTION_MAX,
  TITLE_MAX,
  TITLE_MIN,
  type UpdateSiteSectionGroupInput,
} from '../domain/site.decider';
import type { Position } from '../domain/site-structure';
import type {
  SiteSectionListQuery,
  SiteSpaceListQuery,
  SiteStructureQuery,
} from '../read/site-structure.queries';
import type {
  AddSiteSectionGroupInput,
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
const NESTED = 'section groups nested in section groups are not served here';
/** Sections a group is created with: as many as a site has, at most. */
export const GROUP_SECTIONS_MAX = 1000;
const LOCALIZED = 'localized titles and descriptions are not served here';

/** The key of an active share link of the site (404 naming it otherwise): published URLs carry it. */
const ShareKey = () => applyDecorators(IsAbsentOr(), IsString());

export class SiteSectionListQueryDto extends ListQueryDto implements SiteSectionListQuery {
  @ShareKey()
  shareKey?: string;
}

export class SiteSpaceListQueryDto extends SiteSectionListQueryDto implements SiteSpaceListQuery {
  @BooleanQuery()
  default?: boolean;
}

export class SiteStructureQueryDto implements SiteStructureQuery {
  @ShareKey()
  shareKey?: string;
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

export class AddSiteSectionDto {
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

  /** A section group of the site, the section added at its end (checked by the site). */
  @IsAbsentOr()
  @IsString()
  @anId('site section group')
  siteSectionGroupId?: string;
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

  /** A section group of the site to move the section into; null, out of its group to the top level. */
  @nullable()
  @IsString()
  @anId('site section group')
  siteSectionGroupId?: string | null;
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

/** A class named `name` (what the API document and the validation messages call it). */
function named<C>(name: string, type: C): C {
  return Object.defineProperty(type, 'name', { value: name });
}

/** GitBook's position of a move, as the class `name`: before or after an item, each given as a `Pointer`. */
function PositionDto<P>(name: string, Pointer: new () => P) {
  class Position {
    @IsAbsentOr()
    @IsObject()
    @ValidateNested()
    @Type(() => Pointer)
    before?: P;

    @IsAbsentOr()
    @IsObject()
    @ValidateNested()
    @Type(() => Pointer)
    after?: P;
  }
  return named(name, Position);
}

/** The body of a deprecated move, as the class `name`: without a position, to the end. */
function MoveDto<T>(name: string, Position: new () => T) {
  class Move {
    @IsAbsentOr()
    @IsObject()
    @ValidateNested()
    @Type(() => Position)
    position?: T;
  }
  return named(name, Move);
}

export const SiteSpacePositionDto = PositionDto('SiteSpacePositionDto', SiteSpacePointerDto);
export type SiteSpacePositionDto = InstanceType<typeof SiteSpacePositionDto>;
export const SiteSectionPositionDto = PositionDto('SiteSectionPositionDto', SiteSectionPointerDto);
export type SiteSectionPositionDto = InstanceType<typeof SiteSectionPositionDto>;
export const MoveSiteSpaceDto = MoveDto('MoveSiteSpaceDto', SiteSpacePositionDto);
export type MoveSiteSpaceDto = InstanceType<typeof MoveSiteSpaceDto>;
export const MoveSiteSectionDto = MoveDto('MoveSiteSectionDto', SiteSectionPositionDto);
export type MoveSiteSectionDto = InstanceType<typeof MoveSiteSectionDto>;

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

export const SiteStructurePositionDto = PositionDto('SiteStructurePositionDto', SiteStructurePointerDto);
export type SiteStructurePositionDto = InstanceType<typeof SiteStructurePositionDto>;

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

export class SiteSectionGroupPointerDto {
  @IsIn(['site-section', 'site-section-group'])
  type: 'site-section' | 'site-section-group';

  @IsString()
  @anId('site section or section group')
  id: string;
}

export const SiteSectionGroupPositionDto = PositionDto(
  'SiteSectionGroupPositionDto',
  SiteSectionGroupPointerDto,
);
export type SiteSectionGroupPositionDto = InstanceType<typeof SiteSectionGroupPositionDto>;
export const MoveSiteSectionGroupDto = MoveDto('MoveSiteSectionGroupDto', SiteSectionGroupPositionDto);
export type MoveSiteSectionGroupDto = InstanceType<typeof MoveSiteSectionGroupDto>;

export class AddSiteSectionGroupDto implements AddSiteSectionGroupInput {
  @Text(GROUP_TITLE_MAX)
  @MinLength(1)
  title: string;

  @nullable()
  @Text(ICON_MAX)
  icon?: string | null;

  /** Sections of the site, each moved into the group (checked by the site: 400 naming the field). */
  @IsAbsentOr()
  @IsArray()
  @ArrayMaxSize(GROUP_SECTIONS_MAX)
  @Matches(ID_PATTERN, { each: true, message: 'each of sections must be the id of a site section' })
  sections?: string[];

  @NotServed(NESTED)
  parent?: unknown;

  @NotServed(DRAFT)
  draft?: unknown;
}

export class UpdateSiteSectionGroupDto implements UpdateSiteSectionGroupInput {
  @IsAbsentOr()
  @Text(GROUP_TITLE_MAX)
  @MinLength(1)
  title?: string;

  /** null removes it. */
  @nullable()
  @Text(ICON_MAX)
  icon?: string | null;

  @NotServed(LOCALIZED)
  localizedTitle?: unknown;

  @NotServed(DRAFT)
  draft?: unknown;

  /** null, the top level, is where every group is: accepted, changing nothing. */
  @nullable()
  @NotServed(NESTED)
  parentSectionGroupId?: unknown;
}

export class AddSectionToGroupDto {
  /** A section of the site (checked by the site: 400 naming the field otherwise). */
  @IsString()
  @anId('site section')
  sectionId: string;
}

/** GitBook's `{before, after}` pointers as the ids a move places an item between. */
export function positionOf<P>(
  position: { before?: P; after?: P } | undefined,
  idOf: (pointer: P) => string,
): Position {
  return {
    ...(position?.before ? { before: idOf(position.before) } : {}),
    ...(position?.after ? { after: idOf(position.after) } : {}),
  };
}
