import { ID_PATTERN } from '@app/platform/domain/ids';
import { BooleanQuery, NotServed, QueryList, Text } from '@app/platform/http/fields';
import { ListQueryDto } from '@app/platform/http/pagination';
import { IsAbsentOr } from '@app/platform/http/validation';
import { BodyExample } from '@app/platform/openapi/body-example';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsObject,
  IsString,
  Matches,
  MaxLength,
  MinLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { DEFAULT_ADAPTIVE_SCHEMA } from '../domain/adaptive-schema';
import {
  AGENTS_CONTEXTS,
  type AgentsContext,
  BASENAME_MAX,
  PROXY_MAX,
  PROXY_PATTERN,
  SITE_TYPES,
  SITE_VISIBILITIES,
  type SiteType,
  type SiteVisibility,
  TITLE_MAX,
  TITLE_MIN,
} from '../domain/site.decider';
import type { SiteListQuery } from '../read/sites.queries';
import type { CreateSiteInput, ReplaceAdaptiveSchemaInput, UpdateSiteInput } from '../write/site.commands';

/** Spaces a site may be created with: a site's first few. */
export const SITE_SPACES_ON_CREATE_MAX = 100;

export class CreateSiteDto implements CreateSiteInput {
  @IsAbsentOr()
  @IsIn(SITE_TYPES)
  type?: SiteType;

  @IsAbsentOr()
  @Text(TITLE_MAX)
  @MinLength(TITLE_MIN)
  title?: string;

  @IsAbsentOr()
  @IsIn(SITE_VISIBILITIES)
  visibility?: SiteVisibility;

  /** Spaces of the organization to publish as the site's first site spaces, in order. */
  @IsAbsentOr()
  @IsArray({ message: 'spaces must be a list of space ids: creating new spaces with a site is not served' })
  @ArrayMaxSize(SITE_SPACES_ON_CREATE_MAX)
  @Matches(ID_PATTERN, { each: true, message: 'each of spaces must be the id of a space' })
  spaces?: string[];
}

export class AdaptiveContentDto {
  @IsBoolean()
  enabled: boolean;
}

const siblingId = (what: string) => Matches(ID_PATTERN, { message: `$property must be the id of a ${what}` });

export class UpdateSiteDto implements UpdateSiteInput {
  @IsAbsentOr()
  @Text(TITLE_MAX)
  @MinLength(TITLE_MIN)
  title?: string;

  @IsAbsentOr()
  @IsIn(SITE_VISIBILITIES)
  visibility?: SiteVisibility;

  @IsAbsentOr()
  @Text(BASENAME_MAX)
  @MinLength(1)
  basename?: string;

  @IsAbsentOr()
  @IsObject()
  @ValidateNested()
  @Type(() => AdaptiveContentDto)
  adaptiveContent?: AdaptiveContentDto;

  @IsAbsentOr()
  @IsIn(AGENTS_CONTEXTS)
  agentsContext?: AgentsContext;

  /** One of the site's site spaces (checked by the site: 400 naming the field otherwise). */
  @IsAbsentOr()
  @IsString()
  @siblingId('site space')
  defaultSiteSpace?: string;

  /** One of the site's sections (checked by the site: 400 naming the field otherwise). */
  @IsAbsentOr()
  @IsString()
  @siblingId('site section')
  defaultSiteSection?: string;

  /** A host and a path (`company.com/docs`) to serve the site at; null removes it. */
  @ValidateIf((_o, value) => value !== undefined && value !== null)
  @IsString()
  @MaxLength(PROXY_MAX)
  @Matches(PROXY_PATTERN, { message: 'proxy must be a host and a path, such as company.com/docs' })
  proxy?: string | null;

  /** GitBook's default level of a site's members: access to sites follows the organization role here. */
  @NotServed("access to a site follows each member's organization role here; a site has no level of its own")
  defaultLevel?: unknown;

  /** GitBook's style guide space of a site. */
  @NotServed('style guides are not served here')
  styleguide?: unknown;
}

/** Replaces the site's adaptive schema whole. */
@BodyExample({ jsonSchema: DEFAULT_ADAPTIVE_SCHEMA })
export class SiteAdaptiveSchemaDto implements ReplaceAdaptiveSchemaInput {
  /**
   * GitBook's `SiteAdaptiveJSONSchema` of boolean claims, checked by the site: a misfit is a 400 naming
   * where (`jsonSchema.properties.plan must be a boolean claim`).
   */
  @IsObject()
  jsonSchema: Record<string, unknown>;
}

export class SiteListQueryDto extends ListQueryDto implements SiteListQuery {
  @IsAbsentOr()
  @IsString()
  @MaxLength(TITLE_MAX)
  title?: string;

  @BooleanQuery()
  published?: boolean;

  @IsAbsentOr()
  @QueryList(SITE_TYPES, SITE_TYPES.length)
  type?: SiteType[];

  /** Sites holding a space as a site space. */
  @IsAbsentOr()
  @IsString()
  @Matches(ID_PATTERN, { message: 'space must be the id of a space' })
  space?: string;
}
