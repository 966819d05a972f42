import { spec } from '@app/platform/domain/decider.testing';
import {
  type TranslationCommand,
  type TranslationEvent,
  translationDecider,
  translationStream,
} from './translation.decider';

const t0 = Date.parse('2026-01-01T00:00:00Z');
const t1 = t0 + 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

const create = (
  overrides: { title?: string; languages?: string[]; language?: string } = {},
): TranslationCommand => ({
  type: 'CreateTranslationSettings',
  translationId: 'tr1',
  organization: 'org1',
  input: { title: 'Docs', languages: ['fr', 'de'], ...overrides },
  at: t0,
});

const created: TranslationEvent = {
  type: 'TranslationSettingsCreated',
  data: {
    translationId: 'tr1',
    organization: 'org1',
    title: 'Docs',
    languages: ['fr', 'de'],
    createdAt: iso(t0),
  },
};

const deleted: TranslationEvent = {
  type: 'TranslationSettingsDeleted',
  data: { translationId: 'tr1', organization: 'org1', deletedAt: iso(t1) },
};

const update = (title: string, languages?: string[]): TranslationCommand => ({
  type: 'UpdateTranslationSettings',
  organization: 'org1',
  input: { title, ...(languages === undefined ? {} : { languages }) },
  at: t1,
});

const updated = (changes: Record<string, unknown>): TranslationEvent => ({
  type: 'TranslationSettingsUpdated',
  data: { translationId: 'tr1', organization: 'org1', changes, updatedAt: iso(t1) },
});

const translation = spec(translationDecider);

describe('translation settings decider', () => {
  it('names the stream after the settings', () => {
    expect(translationStream('tr1')).toBe('translation-tr1');
  });

  describe('CreateTranslationSettings', () => {
    it('creates the settings with their title and languages', () => {
      const state = translation.when(create()).thenEmits([created]);
      expect(state).toStrictEqual({
        status: 'active',
        translationId: 'tr1',
        organization: 'org1',
        title: 'Docs',
        languages: ['fr', 'de'],
      });
    });

    it.each([
      ['1 character', 'x'],
      ['100 characters', 'x'.repeat(100)],
    ])('accepts a title of %s', (_label, title) => {
      translation
        .when(create({ title }))
        .thenEmits([{ ...created, data: { ...created.data, title } }] as never);
    });

    it('accepts no languages', () => {
      translation
        .when(create({ languages: [] }))
        .thenEmits([{ ...created, data: { ...created.data, languages: [] } }] as never);
    });

    it.each([
      ['empty', ''],
      ['only spaces', '   '],
      ['101 characters', 'x'.repeat(101)],
    ])('rejects a title that is %s', (_label, title) => {
      translation.when(create({ title })).thenThrows('invalid', /^title/);
    });

    it('rejects a language that is not one of GitBook’s', () => {
      translation.when(create({ languages: ['fr', 'klingon'] })).thenThrows('invalid', /^languages.*klingon/);
    });

    it("adds GitBook's single language to the languages, once", () => {
      const withLanguages = (languages: string[]) =>
        [{ ...created, data: { ...created.data, languages } }] as never;
      translation.when(create({ language: 'ja' })).thenEmits(withLanguages(['fr', 'de', 'ja']));
      translation.when(create({ language: 'de' })).thenEmits(withLanguages(['fr', 'de']));
      translation.when(create({ languages: [], language: 'pt-br' })).thenEmits(withLanguages(['pt-br']));
    });

    it('rejects a single language that is not one of GitBook’s, naming it', () => {
      translation.when(create({ language: 'klingon' })).thenThrows('invalid', /^language: "klingon"/);
    });

    it('rejects a language listed twice', () => {
      translation.when(create({ languages: ['fr', 'fr'] })).thenThrows('invalid', /^languages.*twice/);
    });

    it('rejects creating settings that already exist', () => {
      translation
        .given([created])
        .when(create())
        .thenThrows('conflict', /already exist/);
    });

    it('rejects creating settings again once deleted', () => {
      translation
        .given([created, deleted])
        .when(create())
        .thenThrows('conflict', /already exist/);
    });
  });

  describe('UpdateTranslationSettings', () => {
    it('replaces the title and the languages', () => {
      const state = translation
        .given([created])
        .when(update('Guides', ['ja']))
        .thenEmits([updated({ title: 'Guides', languages: ['ja'] })]);
      expect(state).toMatchObject({ title: 'Guides', languages: ['ja'] });
    });

    it('keeps the languages when the body has none', () => {
      translation
        .given([created])
        .when(update('Guides'))
        .thenEmits([updated({ title: 'Guides' })]);
    });

    it('records only what changes', () => {
      translation
        .given([created])
        .when(update('Docs', ['de']))
        .thenEmits([updated({ languages: ['de'] })]);
    });

    it('emits nothing when nothing changes', () => {
      translation
        .given([created])
        .when(update('Docs', ['fr', 'de']))
        .thenNothing();
    });

    it('rejects a blank title', () => {
      translation
        .given([created])
        .when(update('  '))
        .thenThrows('invalid', /^title/);
    });

    it('rejects a title of 101 characters', () => {
      translation
        .given([created])
        .when(update('x'.repeat(101)))
        .thenThrows('invalid', /^title/);
    });

    it('rejects an unknown language', () => {
      translation
        .given([created])
        .when(update('Docs', ['xx']))
        .thenThrows('invalid', /^languages/);
    });

    it('rejects a language listed twice', () => {
      translation
        .given([created])
        .when(update('Docs', ['ja', 'ja']))
        .thenThrows('invalid', /^languages/);
    });

    it('rejects updating settings that do not exist', () => {
      translation.when(update('Docs')).thenThrows('not_found', /Translation settings/);
    });

    it('rejects updating deleted settings', () => {
      translation
        .given([created, deleted])
        .when(update('Docs'))
        .thenThrows('not_found', /Translation settings/);
    });
  });

  describe('DeleteTranslationSettings', () => {
    it('deletes the settings', () => {
      const state = translation
        .given([created])
        .when({ type: 'DeleteTranslationSettings', organization: 'org1', at: t1 })
        .thenEmits([deleted]);
      expect(state).toStrictEqual({ status: 'deleted', translationId: 'tr1', organization: 'org1' });
    });

    it('rejects deleting settings that do not exist', () => {
      translation
        .when({ type: 'DeleteTranslationSettings', organization: 'org1', at: t1 })
        .thenThrows('not_found', /Translation settings/);
    });

    it('rejects settings of another organization, as if they did not exist', () => {
      translation
        .given([created])
        .when({ type: 'DeleteTranslationSettings', organization: 'org2', at: t1 })
        .thenThrows('not_found', /Translation settings/);
      translation
        .given([created])
        .when({ ...update('Other'), organization: 'org2' } as TranslationCommand)
        .thenThrows('not_found', /Translation settings/);
    });

    it('rejects deleting settings twice', () => {
      translation
        .given([created, deleted])
        .when({ type: 'DeleteTranslationSettings', organization: 'org1', at: t1 })
        .thenThrows('not_found', /Translation settings/);
    });
  });
});
