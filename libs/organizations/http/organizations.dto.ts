import { ROLES, type Role } from '@app/platform/domain/roles';
import { Text } from '@app/platform/http/fields';
import { IsAbsentOr } from '@app/platform/http/validation';
import type { StandaloneMergeRules } from '@app/spaces/domain/merge-rules';
import { IsMergeRules } from '@app/spaces/http/merge-rules.field';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import {
  EMAIL_DOMAIN_PATTERN,
  EMAIL_DOMAINS_MAX,
  HOSTNAME_PATTERN,
  LOGO_MAX,
} from '../domain/organization.decider';
import type { DefaultContentInput, UpdateOrganizationInput } from '../write/organization.commands';

const nullable = () => ValidateIf((_o, value) => value !== undefined && value !== null);

/** GitBook's `SitePointer`. */
export class DefaultContentDto implements DefaultContentInput {
  @IsIn(['site'])
  type: 'site';

  @Text(100)
  site: string;
}

/** The body of `updateOrganizationById`; the decider checks the bounds a rule here cannot say (title 2+). */
export class UpdateOrganizationDto implements UpdateOrganizationInput {
  @IsAbsentOr()
  @Text(255)
  title?: string;

  /** Domain names, each once whatever its case (stored in lower case). */
  @IsAbsentOr()
  @IsArray()
  @ArrayMaxSize(EMAIL_DOMAINS_MAX)
  @Matches(EMAIL_DOMAIN_PATTERN, { each: true, message: 'each value of emailDomains must be a domain name' })
  emailDomains?: string[];

  @IsAbsentOr()
  @IsString()
  @MaxLength(32)
  @Matches(HOSTNAME_PATTERN, {
    message:
      'hostname must be 3 to 32 lowercase letters, digits or dashes, not starting or ending with a dash',
  })
  hostname?: string;

  /** A role, or null: newcomers join as guests. */
  @IsOptional()
  @IsIn([...ROLES], { message: `defaultRole must be one of ${ROLES.join(', ')} or null` })
  defaultRole?: Role | null;

  @nullable()
  @IsObject()
  @ValidateNested()
  @Type(() => DefaultContentDto)
  // Typed without `| null` so that its metadata names the class; null passes `nullable()`.
  defaultContent?: DefaultContentDto;

  /** An http(s) URL, or null to remove the logo. */
  @nullable()
  @IsString()
  @MaxLength(LOGO_MAX)
  @Matches(/^https?:\/\/[^\s/?#]+\S*$/, { message: 'logo must be an http(s) URL or null' })
  logo?: string | null;

  @IsAbsentOr()
  @IsBoolean()
  sso?: boolean;

  @IsAbsentOr()
  @IsBoolean()
  ai?: boolean;

  @IsAbsentOr()
  @IsBoolean()
  inviteLinks?: boolean;

  /**
   * `{type: none}` or `{type: rules, rules: [...]}` (GitBook's rules but `custom`): what merges into the
   * organization's spaces that inherit their merge rules must satisfy.
   */
  @IsAbsentOr()
  @IsMergeRules({ inherit: false })
  mergeRules?: StandaloneMergeRules;
}
