import type { UserDoc } from '@app/identity/read/identity.projection';
import { presentUser } from '@app/identity/read/user.presenter';
import type { MemberDoc } from '@app/platform/auth/access';
import { Urls } from '@app/platform/http/urls';
import { Injectable } from '@nestjs/common';
import type { MemberDetailsDoc } from './member.projection';

/** Everything a member item shows, read beforehand. */
export interface MemberView {
  member: MemberDoc;
  user: UserDoc | null;
  details: MemberDetailsDoc | null;
  /** How many teams of the organization the member is in. */
  teams: number;
  /** How many spaces the member can see. */
  spaces: number;
}

@Injectable()
export class MemberPresenter {
  constructor(private readonly urls: Urls) {}

  /** GitBook's `OrganizationMember`. No membership is disabled, and sites are not served here. */
  present({ member, user, details, teams, spaces }: MemberView) {
    return {
      object: 'member' as const,
      id: member.userId,
      role: member.role,
      user: presentUser(this.urls, member.userId, user),
      disabled: false,
      joinedAt: member.joinedAt,
      ...(details?.lastSeenAt ? { lastSeenAt: details.lastSeenAt } : {}),
      sso: details?.sso ?? false,
      spaces,
      teams,
      sites: 0,
    };
  }
}
