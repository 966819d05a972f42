import { NotServed, Text } from '@app/platform/http/fields';
import { IsAbsentOr } from '@app/platform/http/validation';
import { SPACE_LANGUAGES } from '@app/spaces/domain/language';
import { ArrayMaxSize, IsArray, IsIn } from 'class-validator';
import { TITLE_MAX } from '../domain/translation.decider';
import type { TranslationInput } from '../write/translation.commands';

const NO_INSTRUCTIONS =
  'translation settings hold a title and the languages content is translated into, and no instructions';

/**
 * The body of update (PUT), and the start of create's: `languages` absent keeps what the settings hold. A
 * blank title and a language given twice are refused by the decider.
 */
export class TranslationDto implements TranslationInput {
  @Text(TITLE_MAX)
  title!: string;

  /** GitBook's `TranslationLanguage` codes. */
  @IsAbsentOr()
  @IsArray()
  @ArrayMaxSize(SPACE_LANGUAGES.length)
  @IsIn(SPACE_LANGUAGES, {
    each: true,
    message: `each value of languages must be one of ${SPACE_LANGUAGES.join(', ')}`,
  })
  languages?: string[];
}

/** The body of update (PUT): GitBook's `instructions` (its only field) has no place in the settings. */
export class UpdateTranslationDto extends TranslationDto {
  /** GitBook's `JSONDocument` of instructions for the translator. */
  @NotServed(NO_INSTRUCTIONS)
  instructions?: unknown;
}

/** The body of create (POST): GitBook's `language` joins `languages`; its `source` and `instructions` are refused. */
export class CreateTranslationDto extends UpdateTranslationDto {
  /** GitBook's `TranslationLanguage`: one more language content is translated into. */
  @IsAbsentOr()
  @IsIn(SPACE_LANGUAGES, { message: `language must be one of ${SPACE_LANGUAGES.join(', ')}` })
  language?: string;

  /** GitBook's `TranslationSource`: the space (and its language) a translation is made from. */
  @NotServed('translation settings belong to the organization as a whole and name no source space')
  source?: unknown;
}
