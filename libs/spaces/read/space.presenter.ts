import type { Role } from '@app/platform/domain/roles';
import { Urls } from '@app/platform/http/urls';
import { Injectable } from '@nestjs/common';
import { spacePermissions } from '../domain/space.permissions';
import type { SpaceDoc } from './space.projection';

@Injectable()
export class SpacePresenter {
  constructor(private readonly urls: Urls) {}

  present(doc: SpaceDoc, role: Role) {
    return {
      object: 'space' as const,
      id: doc.id,
      title: doc.title,
      emoji: doc.emoji,
      visibility: doc.visibility,
      createdAt: doc.createdAt,
      updatedAt: doc.updatedAt,
      ...(doc.deletedAt ? { deletedAt: doc.deletedAt } : {}),
      editMode: doc.editMode,
      mergeRules: doc.mergeRules ?? { type: 'inherit' as const },
      urls: {
        location: this.urls.api(`/spaces/${doc.id}`),
        app: this.urls.app(`/o/${doc.organization}/s/${doc.id}`),
        ...(doc.icon ? { icon: doc.icon } : {}),
      },
      organization: doc.organization,
      ...(doc.parent ? { parent: doc.parent } : {}),
      revision: doc.revision,
      defaultLevel: doc.defaultLevel,
      ...(doc.language ? { language: doc.language } : {}),
      comments: doc.comments,
      changeRequests: doc.changeRequests,
      changeRequestsOpen: doc.changeRequestsOpen,
      changeRequestsDraft: doc.changeRequestsDraft,
      permissions: spacePermissions(role),
    };
  }
}
