import type { Role } from '@app/platform/domain/roles';
import { Urls } from '@app/platform/http/urls';
import { Injectable } from '@nestjs/common';
import type { WidgetDoc } from './widget.projection';

/** The API shape of a __label__. */
@Injectable()
export class WidgetPresenter {
  constructor(private readonly urls: Urls) {}

  present(doc: WidgetDoc, role: Role) {
    return {
      object: '__name__' as const,
      id: doc.id,
      title: doc.title,
      organization: doc.organization,
      createdAt: doc.createdAt,
      updatedAt: doc.updatedAt,
      urls: { location: this.urls.api(`/__names__/${doc.id}`) },
      permissions: { view: true, edit: role === 'admin' || role === 'create' },
    };
  }
}
