import type { Role } from '@app/platform/domain/roles';
import { Urls } from '@app/platform/http/urls';
import { Injectable } from '@nestjs/common';
import { collectionPermissions } from '../domain/collection.permissions';
import type { CollectionDoc } from './collection.projection';

@Injectable()
export class CollectionPresenter {
  constructor(private readonly urls: Urls) {}

  present(doc: CollectionDoc, role: Role) {
    return {
      object: 'collection' as const,
      id: doc.id,
      title: doc.title,
      ...(doc.description !== null ? { description: doc.description } : {}),
      organization: doc.organization,
      ...(doc.parent ? { parent: doc.parent } : {}),
      defaultLevel: doc.defaultLevel,
      urls: {
        location: this.urls.api(`/collections/${doc.id}`),
        app: this.urls.app(`/o/${doc.organization}/c/${doc.id}`),
      },
      permissions: collectionPermissions(role),
    };
  }
}
