import type { FeatureManifest } from '@app/platform/feature/feature';
import { translationAggregate } from './domain/translation.aggregate';
import { translationAuditSubjects } from './domain/translation.audit';
import { translationProjection } from './read/translation.projection';

/** Translation settings of an organization: a title and the languages its content is translated into. */
export const translationsFeature: FeatureManifest = {
  name: 'translations',
  module: async () => (await import('./translations.module')).TranslationsModule,
  aggregates: [translationAggregate],
  projections: [translationProjection],
  audited: translationAuditSubjects,
  fixtures: {
    translationId: async ({ call, ids, label }) =>
      (
        (await call('POST', `/v1/orgs/${ids.organizationId}/translations`, {
          title: `${label} translations`,
          languages: ['fr'],
        })) as { id: string }
      ).id,
  },
};
