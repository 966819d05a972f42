import { givenProjection, recorderOf } from '@app/platform/projector/projection.testing';
import { type TranslationEvent, translationStream } from '../domain/translation.decider';
import { TRANSLATIONS, translationProjection } from './translation.projection';

const recorded = recorderOf<TranslationEvent>();
const inStream = (id: string) => ({ stream: translationStream(id) });

const created = (id: string, createdAt = '2026-01-01T00:00:00.000Z') =>
  recorded(
    'TranslationSettingsCreated',
    { translationId: id, organization: 'o1', title: `T ${id}`, languages: ['fr'], createdAt },
    inStream(id),
  );
const updated = (id: string, changes: { title?: string; languages?: ('de' | 'ja')[] }) =>
  recorded(
    'TranslationSettingsUpdated',
    { translationId: id, organization: 'o1', changes, updatedAt: '2026-01-02T00:00:00.000Z' },
    inStream(id),
  );
const deleted = (id: string) =>
  recorded(
    'TranslationSettingsDeleted',
    { translationId: id, organization: 'o1', deletedAt: '2026-01-03T00:00:00.000Z' },
    inStream(id),
  );

const translations = givenProjection(translationProjection);

describe('translation settings projection', () => {
  it('records created settings with their stream revision', async () => {
    await translations.given(created('t1')).thenDocuments(TRANSLATIONS, [
      {
        id: 't1',
        organization: 'o1',
        title: 'T t1',
        languages: ['fr'],
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-01T00:00:00.000Z',
        streamRevision: expect.any(Number),
      },
    ]);
  });

  it('applies an update and stamps when', async () => {
    await translations
      .given(created('t1'), updated('t1', { languages: ['de', 'ja'] }))
      .thenDocuments(TRANSLATIONS, [
        {
          id: 't1',
          organization: 'o1',
          title: 'T t1',
          languages: ['de', 'ja'],
          createdAt: '2026-01-01T00:00:00.000Z',
          updatedAt: '2026-01-02T00:00:00.000Z',
          streamRevision: expect.any(Number),
        },
      ]);
  });

  it('forgets deleted settings and keeps the others', async () => {
    await translations.given(created('t1'), created('t2'), deleted('t1')).thenDocuments(TRANSLATIONS, [
      {
        id: 't2',
        organization: 'o1',
        title: 'T t2',
        languages: ['fr'],
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-01T00:00:00.000Z',
        streamRevision: 0,
      },
    ]);
  });

  it('ignores an update of settings it never saw', async () => {
    await translations.given(updated('t9', { title: 'X' })).thenDocuments(TRANSLATIONS, []);
  });

  it('changes nothing when the events are replayed, and a rebuild gives the same views', async () => {
    const scenario = translations.given(
      created('t1'),
      created('t2'),
      updated('t1', { title: 'Renamed', languages: ['ja'] }),
      deleted('t2'),
    );
    await scenario.thenReplayChangesNothing();
    await scenario.thenRebuildMatches();
  });
});
