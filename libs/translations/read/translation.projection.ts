import { documents, projection } from '@app/platform/projector/projection';
import { collectionName, type Doc } from '@app/platform/readstore/read-store.port';
import type { SpaceLanguage } from '@app/spaces/domain/language';
import type { TranslationEvent } from '../domain/translation.decider';

export interface TranslationDoc extends Doc {
  organization: string;
  title: string;
  languages: SpaceLanguage[];
  createdAt: string;
  updatedAt: string;
  /** Revision of the settings' stream: its ETag. */
  streamRevision: number;
}

export const TRANSLATIONS = collectionName<TranslationDoc>('translations');

/** Translation settings by organization, oldest first; a deleted one is gone. */
export const translationProjection = projection<TranslationEvent>(
  'translations',
  [{ collection: TRANSLATIONS, fields: ['organization', 'createdAt'] }],
  {
    TranslationSettingsCreated: documents(TRANSLATIONS).put((e) => {
      const { translationId, organization, title, languages, createdAt } = e.data;
      return {
        id: translationId,
        organization,
        title,
        languages,
        createdAt,
        updatedAt: createdAt,
        streamRevision: e.revision,
      };
    }),
    TranslationSettingsUpdated: documents(TRANSLATIONS).update(
      (e) => e.data.translationId,
      (doc, e) => ({ ...doc, ...e.data.changes, updatedAt: e.data.updatedAt, streamRevision: e.revision }),
    ),
    TranslationSettingsDeleted: documents(TRANSLATIONS).delete((e) => e.data.translationId),
  },
);
