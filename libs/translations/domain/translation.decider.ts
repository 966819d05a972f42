import { invalid } from '@app/platform/domain/decider';
import {
  type ResourceCommand,
  type ResourceEvent,
  type ResourceState,
  resourceDecider,
} from '@app/platform/domain/resource-decider';
import { isSpaceLanguage, type SpaceLanguage } from '@app/spaces/domain/language';

/** What an organization's translation settings hold: a title and the languages content is translated into. */
export interface TranslationSettings {
  title: string;
  languages: SpaceLanguage[];
}

export type TranslationChanges = Partial<TranslationSettings>;

/**
 * A create sets both; an update (a PUT) sets the title, and the languages when given. A create's
 * `language` (GitBook's, the one language of its `Translation`) is one more language, listed last
 * unless `languages` has it.
 */
export interface TranslationInput {
  title: string;
  languages?: readonly string[];
  language?: string;
}

const NAMES = {
  create: 'CreateTranslationSettings',
  update: 'UpdateTranslationSettings',
  delete: 'DeleteTranslationSettings',
  created: 'TranslationSettingsCreated',
  updated: 'TranslationSettingsUpdated',
  deleted: 'TranslationSettingsDeleted',
} as const;

export type TranslationState = ResourceState<'translationId', TranslationSettings>;
export type TranslationEvent = ResourceEvent<'translationId', TranslationSettings, typeof NAMES>;
export type TranslationCommand = ResourceCommand<'translationId', TranslationInput, typeof NAMES>;

export const TITLE_MAX = 100;

function checkedTitle(title: string): string {
  if (title.trim().length === 0 || title.length > TITLE_MAX) {
    throw invalid(`title must be 1 to ${TITLE_MAX} characters, not only spaces`);
  }
  return title;
}

function checkedLanguages(languages: readonly string[]): SpaceLanguage[] {
  const out: SpaceLanguage[] = [];
  for (const language of languages) {
    if (!isSpaceLanguage(language)) throw invalid(`languages: ${JSON.stringify(language)} is not a language`);
    if (out.includes(language)) throw invalid(`languages: ${language} is listed twice`);
    out.push(language);
  }
  return out;
}

function withLanguage(languages: SpaceLanguage[], language: string | undefined): SpaceLanguage[] {
  if (language === undefined) return languages;
  if (!isSpaceLanguage(language)) throw invalid(`language: ${JSON.stringify(language)} is not a language`);
  return languages.includes(language) ? languages : [...languages, language];
}

export const translationDecider = resourceDecider({
  what: 'Translation settings',
  idKey: 'translationId',
  names: NAMES,
  create: (input: TranslationInput): TranslationSettings => ({
    title: checkedTitle(input.title),
    languages: withLanguage(checkedLanguages(input.languages ?? []), input.language),
  }),
  update: (input: TranslationInput): Partial<TranslationSettings> => ({
    title: checkedTitle(input.title),
    ...(input.languages === undefined ? {} : { languages: checkedLanguages(input.languages) }),
  }),
});

export const translationStream = (translationId: string) => `translation-${translationId}`;
