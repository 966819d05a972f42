import { CollectionPresenter } from '@app/collections/read/collection.presenter';
import { COLLECTIONS } from '@app/collections/read/collection.projection';
import { Access } from '@app/platform/auth/access';
import { atLeast, type Role } from '@app/platform/domain/roles';
import { READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import { SpacePresenter } from '@app/spaces/read/space.presenter';
import { SPACES } from '@app/spaces/read/space.projection';
import { Inject, Injectable } from '@nestjs/common';
import { grantedLevel } from '../domain/invite-link.decider';
import type { InviteLinkDoc } from './invite.projection';

@Injectable()
export class InvitePresenter {
  constructor(
    @Inject(READ_STORE) private readonly views: ReadStore,
    private readonly access: Access,
    private readonly spaces: SpacePresenter,
    private readonly collections: CollectionPresenter,
  ) {}

  /**
   * GitBook's `InviteLinkToOrganization`, `InviteLinkToSpace` or `InviteLinkToCollection`. `redundant`
   * when the viewer already has all the link gives (a guest link to the organization gives a member
   * nothing). Null when the space or collection a link opens is gone (the link opens nothing any more).
   */
  async present(doc: InviteLinkDoc, viewerRole: Role | null, userId: string) {
    const base = { object: 'invite' as const, id: doc.id };
    if (!doc.target) {
      return { ...base, role: doc.role, redundant: doc.role === null || atLeast(viewerRole, doc.role) };
    }
    const there = await this.access.roleOf(doc.target.id, userId);
    const content = { ...base, level: doc.role, redundant: atLeast(there, grantedLevel(doc.role)) };
    if (doc.target.kind === 'space') {
      const space = await this.views.get(SPACES, doc.target.id);
      return space && there && { ...content, space: this.spaces.present(space, there) };
    }
    const collection = await this.views.get(COLLECTIONS, doc.target.id);
    return collection && there && { ...content, collection: this.collections.present(collection, there) };
  }
}
