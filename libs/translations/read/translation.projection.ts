import { projection } from '@app/platform/projector/projection';
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
    TranslationSettingsCreated: async (e, ctx) => {
      const { translationId, organization, title, languages, createdAt } = e.data;
      await ctx.put(TRANSLATIONS, {
        id: translationId,
        organization,
        title,
        languages,
        createdAt,
        updatedAt: createdAt,
        streamRevision: e.revision,
      });
    },
    TranslationSettingsUpdated: async (e, ctx) => {
      const doc = await ctx.get(TRANSLATIONS, e.data.translationId);
      if (doc) {
        await ctx.put(TRANSLATIONS, {
          ...doc,
          ...e.data.changes,
          updatedAt: e.data.updatedAt,
          streamRevision: e.revision,
        });
      }
    },
    TranslationSettingsDeleted: async (e, ctx) => {
      await ctx.delete(TRANSLATIONS, e.data.translationId);
    },
  },
);
