import { auditSubjects } from '@app/platform/domain/audit-subject';
import type { TranslationEvent } from './translation.decider';

/** What each translation settings event is about, for the audit log. */
export const translationAuditSubjects = auditSubjects<TranslationEvent>()({
  translation_settings: {
    TranslationSettingsCreated: (d) => ({
      type: 'translation-settings',
      id: d.translationId,
      organization: d.organization,
      label: d.title,
    }),
    TranslationSettingsUpdated: (d) => ({
      type: 'translation-settings',
      id: d.translationId,
      organization: d.organization,
      label: d.changes.title,
    }),
    TranslationSettingsDeleted: (d) => ({
      type: 'translation-settings',
      id: d.translationId,
      organization: d.organization,
    }),
  },
});
