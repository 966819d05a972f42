import type { UserDoc } from '@app/identity/read/identity.projection';
import { presentUser } from '@app/identity/read/user.presenter';
import type { MemberDoc } from '@app/platform/auth/access';
import { CONTENT_GRANTS } from '@app/platform/auth/auth-views';
import type { Role } from '@app/platform/domain/roles';
import { Urls } from '@app/platform/http/urls';
import { READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import { Inject, Injectable } from '@nestjs/common';
import type { TeamRole } from '../domain/team.decider';
import { teamPermissions } from '../domain/team.permissions';
import type { TeamDoc, TeamMemberDoc } from './team.projection';

/** What a membership item shows of the organization member, beside the team membership. */
export interface MemberView {
  membership: TeamMemberDoc;
  member: MemberDoc | null;
  user: UserDoc | null;
  /** How many teams of the organization the user is in. */
  teams: number;
}

@Injectable()
export class TeamPresenter {
  constructor(
    private readonly urls: Urls,
    @Inject(READ_STORE) private readonly views: ReadStore,
  ) {}

  /** GitBook's `OrganizationTeam`; `spaces` counts the spaces granted to the team itself. */
  async present(doc: TeamDoc, role: Role | null, teamRole: TeamRole | null) {
    const where = { grantee: 'team', granteeId: doc.id, organization: doc.organization, kind: 'space' };
    const spaces = (await this.views.find(CONTENT_GRANTS, { where, limit: 0 })).count;
    return {
      object: 'team' as const,
      id: doc.id,
      title: doc.title,
      members: doc.members,
      spaces,
      createdAt: doc.createdAt,
      permissions: teamPermissions(role, teamRole),
    };
  }

  /** GitBook's `OrganizationTeamMember`: the organization member and their role in the team. */
  presentMember({ membership, member, user, teams }: MemberView) {
    return {
      organization: {
        object: 'member' as const,
        id: membership.userId,
        role: member?.role ?? null,
        user: presentUser(this.urls, membership.userId, user),
        disabled: false,
        joinedAt: member?.joinedAt ?? membership.addedAt,
        sso: false,
        spaces: 0,
        teams,
        sites: 0,
      },
      team: { role: membership.role },
      permissions: { view: true },
    };
  }
}
