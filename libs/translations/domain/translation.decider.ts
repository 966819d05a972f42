import { conflict, type Decider, invalid, notFound } from '@app/platform/domain/decider';
import { isSpaceLanguage, type SpaceLanguage } from '@app/spaces/domain/language';

/** What an organization's translation settings hold: a title and the languages content is translated into. */
export interface TranslationSettings {
  title: string;
  languages: SpaceLanguage[];
}

export type TranslationChanges = Partial<TranslationSettings>;

interface TranslationFacts extends TranslationSettings {
  translationId: string;
  organization: string;
}

export type TranslationState =
  | { status: 'none' }
  | ({ status: 'active' } & TranslationFacts)
  | { status: 'deleted'; translationId: string };

export type TranslationEvent =
  | { type: 'TranslationSettingsCreated'; data: TranslationFacts & { createdAt: string } }
  | {
      type: 'TranslationSettingsUpdated';
      data: { translationId: string; organization: string; changes: TranslationChanges; updatedAt: string };
    }
  | {
      type: 'TranslationSettingsDeleted';
      data: { translationId: string; organization: string; deletedAt: string };
    };

export type TranslationCommand =
  | {
      type: 'CreateTranslationSettings';
      translationId: string;
      organization: string;
      title: string;
      languages: readonly string[];
      at: number;
    }
  /** A replacement (PUT): `languages` absent keeps the current ones. */
  | { type: 'UpdateTranslationSettings'; title: string; languages?: readonly string[]; at: number }
  | { type: 'DeleteTranslationSettings'; at: number };

export const TITLE_MAX = 100;

const iso = (ms: number) => new Date(ms).toISOString();

function live(state: TranslationState): TranslationFacts {
  if (state.status !== 'active') throw notFound('Translation settings not found');
  return state;
}

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

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

export const translationDecider: Decider<TranslationCommand, TranslationEvent, TranslationState> = {
  initialState: { status: 'none' },

  decide(command, state) {
    switch (command.type) {
      case 'CreateTranslationSettings': {
        if (state.status !== 'none') throw conflict('Translation settings already exist');
        return [
          {
            type: 'TranslationSettingsCreated',
            data: {
              translationId: command.translationId,
              organization: command.organization,
              title: checkedTitle(command.title),
              languages: checkedLanguages(command.languages),
              createdAt: iso(command.at),
            },
          },
        ];
      }
      case 'UpdateTranslationSettings': {
        const current = live(state);
        const title = checkedTitle(command.title);
        const languages = command.languages === undefined ? undefined : checkedLanguages(command.languages);
        const changes: TranslationChanges = {};
        if (title !== current.title) changes.title = title;
        if (languages !== undefined && !sameList(languages, current.languages)) changes.languages = languages;
        if (Object.keys(changes).length === 0) return [];
        return [
          {
            type: 'TranslationSettingsUpdated',
            data: {
              translationId: current.translationId,
              organization: current.organization,
              changes,
              updatedAt: iso(command.at),
            },
          },
        ];
      }
      case 'DeleteTranslationSettings': {
        const current = live(state);
        return [
          {
            type: 'TranslationSettingsDeleted',
            data: {
              translationId: current.translationId,
              organization: current.organization,
              deletedAt: iso(command.at),
            },
          },
        ];
      }
      default: {
        const unknown: never = command;
        throw invalid(`unknown command ${(unknown as { type: string }).type}`);
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'TranslationSettingsCreated': {
        const { createdAt: _c, ...facts } = event.data;
        return { status: 'active', ...facts };
      }
      case 'TranslationSettingsUpdated':
        return state.status === 'active' ? { ...state, ...event.data.changes } : state;
      case 'TranslationSettingsDeleted':
        return state.status === 'active' ? { status: 'deleted', translationId: state.translationId } : state;
      default:
        return state;
    }
  },
};

export const translationStream = (translationId: string) => `translation-${translationId}`;
