import { ID_PATTERN } from '@app/platform/domain/ids';
import type { DefaultLevel } from '@app/platform/domain/roles';
import { Emoji, IsDefaultLevel, NotServed, Text } from '@app/platform/http/fields';
import { IsAbsentOr } from '@app/platform/http/validation';
import { IsBoolean, IsIn, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import { SPACE_LANGUAGES, type SpaceLanguage } from '../domain/language';
import type { MergeRulesConfiguration } from '../domain/merge-rules';
import { type EditMode, ICON_MAX } from '../domain/space.decider';
import type { CreateSpaceInput, TransferSpaceInput, UpdateSpaceInput } from '../write/space.commands';
import { IsMergeRules } from './merge-rules.field';

const EDIT_MODES = ['live', 'locked'];

export class CreateSpaceDto implements CreateSpaceInput {
  @IsAbsentOr()
  @Text(50)
  title?: string;

  @IsAbsentOr()
  @Emoji()
  emoji?: string;

  @IsAbsentOr()
  @IsString()
  @Matches(ID_PATTERN, { message: 'parent must be a collection id' })
  parent?: string;

  @IsAbsentOr()
  @IsIn(EDIT_MODES)
  editMode?: EditMode;

  /** GitBook's `TranslationLanguage`; absent, the space has none (and reads as English). */
  @IsAbsentOr()
  @IsIn(SPACE_LANGUAGES)
  language?: SpaceLanguage;

  /** GitBook clients send `empty: true` for a space with no page; every new space starts empty here. */
  @IsAbsentOr()
  @IsBoolean()
  empty?: boolean;

  /** GitBook's `ApplySpaceTemplate`: the id of a template of GitBook's catalog. */
  @NotServed(
    "there is no catalog of space templates here to apply; create the space, then write its content with the space's content operations",
  )
  template?: unknown;

  /** GitBook's `ComputedContentSourceRevision`: content generated from an OpenAPI spec, a translation or an integration. */
  @NotServed(
    'computed content (generated from an OpenAPI specification, a translation or an integration) is not served here',
  )
  computedSource?: unknown;
}

export class UpdateSpaceDto implements UpdateSpaceInput {
  @IsAbsentOr()
  @IsIn(EDIT_MODES)
  editMode?: EditMode;

  @IsAbsentOr()
  @Text(50)
  title?: string;

  @IsDefaultLevel()
  defaultLevel?: DefaultLevel;

  /** GitBook's `TranslationLanguage`: the space's content is searched in it from now on. */
  @IsAbsentOr()
  @IsIn(SPACE_LANGUAGES)
  language?: SpaceLanguage;

  /** `{type: inherit}`, `{type: none}` or `{type: rules, rules: [...]}` (GitBook's rules but `custom`). */
  @IsAbsentOr()
  @IsMergeRules({ inherit: true })
  mergeRules?: MergeRulesConfiguration;

  /** An emoji, or null to remove it. */
  @ValidateIf((_o, value) => value !== undefined && value !== null)
  @Emoji()
  emoji?: string | null;

  /**
   * GitBook's `icon` (a URL, answered as `urls.icon`), or null to remove it; a space shows an icon or an
   * emoji, so setting one removes the other (giving both is refused by the decider).
   */
  @ValidateIf((_o, value) => value !== undefined && value !== null)
  @IsString()
  @MaxLength(ICON_MAX)
  @Matches(/^https?:\/\/[^\s/?#]+\S*$/, { message: 'icon must be an http(s) URL or null' })
  icon?: string | null;
}

export class GetSpaceQueryDto {
  @IsAbsentOr()
  @Text(256)
  shareKey?: string;
}

export class TransferSpaceDto implements TransferSpaceInput {
  @IsString()
  @Matches(ID_PATTERN, { message: 'organization must be an organization id' })
  organization: string;

  @IsAbsentOr()
  @IsString()
  @Matches(ID_PATTERN, { message: 'parent must be a collection id' })
  parent?: string;
}
