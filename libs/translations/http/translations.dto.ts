import { Text } from '@app/platform/http/fields';
import { IsAbsentOr } from '@app/platform/http/validation';
import { SPACE_LANGUAGES } from '@app/spaces/domain/language';
import { ArrayMaxSize, IsArray, IsIn } from 'class-validator';
import { TITLE_MAX } from '../domain/translation.decider';
import type { TranslationInput } from '../write/translation.commands';

/**
 * The body of both create (POST) and update (PUT): `languages` absent keeps what the settings hold. A blank
 * title and a language given twice are refused by the decider.
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
