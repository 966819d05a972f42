/**
 * The languages a space may be written in: GitBook's `TranslationLanguage` codes. A space without one
 * is presented without `language`, and read (searched) as English, GitBook's default.
 */
export const SPACE_LANGUAGES = [
  'en',
  'fr',
  'de',
  'es',
  'it',
  'pt',
  'pt-br',
  'ru',
  'ja',
  'zh',
  'zh-tw',
  'yue',
  'ko',
  'ar',
  'hi',
  'nl',
  'pl',
  'tr',
  'sv',
  'no',
  'da',
  'fi',
  'el',
  'cs',
  'hu',
  'ro',
  'th',
  'vi',
  'id',
  'ms',
  'he',
  'uk',
  'sk',
  'bg',
  'hr',
  'lt',
  'lv',
  'et',
  'sl',
] as const;

export type SpaceLanguage = (typeof SPACE_LANGUAGES)[number];

export const isSpaceLanguage = (value: unknown): value is SpaceLanguage =>
  typeof value === 'string' && (SPACE_LANGUAGES as readonly string[]).includes(value);
