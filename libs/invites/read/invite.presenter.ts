import { atLeast, type Role } from '@app/platform/domain/roles';
import { Injectable } from '@nestjs/common';
import type { InviteLinkDoc } from './invite.projection';

@Injectable()
export class InvitePresenter {
  /**
   * GitBook's `InviteLinkToOrganization`: never the key. `redundant` when the viewer's own role already
   * gives all the link gives.
   */
  present(doc: InviteLinkDoc, viewerRole: Role | null) {
    return {
      object: 'invite' as const,
      id: doc.id,
      role: doc.role,
      redundant: atLeast(viewerRole, doc.role),
    };
  }
}
