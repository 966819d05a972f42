import type { Role } from '@app/platform/domain/roles';
import { Urls } from '@app/platform/http/urls';
import { Injectable } from '@nestjs/common';
import { translationPermissions } from '../domain/translation.permissions';
import type { TranslationDoc } from './translation.projection';

/** The API shape of translation settings (the specification's `translation-settings`). */
@Injectable()
export class TranslationPresenter {
  constructor(private readonly urls: Urls) {}

  present(doc: TranslationDoc, role: Role) {
    return {
      object: 'translation-settings' as const,
      id: doc.id,
      title: doc.title,
      languages: doc.languages,
      createdAt: doc.createdAt,
      updatedAt: doc.updatedAt,
      permissions: translationPermissions(role),
      urls: { location: this.urls.api(`/orgs/${doc.organization}/translations/${doc.id}`) },
    };
  }
}
