import { MEMBER_DETAILS } from '@app/members/read/member.projection';
import {
  type OrganizationCommand,
  organizationAggregate,
} from '@app/organizations/domain/organization.aggregate';
import { SEEN_EVERY_MS } from '@app/organizations/domain/organization.decider';
import type { Viewer } from '@app/platform/auth/access';
import { memberKey } from '@app/platform/auth/member-key';
import type { Role } from '@app/platform/domain/roles';
import { READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import { arg, Remote } from '@app/platform/rpc/remote-method';
import { apiContext, type WriteResult } from '@app/platform/write/command-context';
import { CommandRunner } from '@app/platform/write/command-runner';
import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { VisitorClaimsKeys } from './visitor-claims.keys';

export interface UpdateMemberInput {
  /** Null makes the member a guest; absent changes nothing. */
  role?: Role | null;
}

/**
 * Membership changes, each a command of the organization's aggregate (which keeps the last admin).
 * The routes checked the caller's role; the aggregate checks it again where the change is appended (`by`).
 */
@Injectable()
export class MemberService {
  constructor(
    private readonly bus: CommandBus,
    private readonly runner: CommandRunner,
    private readonly claims: VisitorClaimsKeys,
    @Inject(READ_STORE) private readonly views: ReadStore,
  ) {}

  private run(organization: string, command: OrganizationCommand, viewer: Viewer): Promise<WriteResult> {
    return this.bus.execute(organizationAggregate.message(organization, command, apiContext(viewer)));
  }

  @Remote(arg.id('organization'), arg.id('userId'), arg.viewer())
  remove(organization: string, userId: string, viewer: Viewer) {
    return this.run(
      organization,
      { type: 'RemoveMember', userId, at: this.runner.now(), by: viewer.userId },
      viewer,
    );
  }

  @Remote(arg.id('organization'), arg.id('userId'), arg.object<UpdateMemberInput>('body'), arg.viewer())
  update(organization: string, userId: string, body: UpdateMemberInput, viewer: Viewer) {
    // Without a role nothing changes: the answer is the member as it is (or a 404).
    const role = body.role;
    if (role === undefined) return Promise.resolve({ position: 0, revision: 0 });
    return this.run(
      organization,
      { type: 'ChangeMemberRole', userId, role, at: this.runner.now(), by: viewer.userId },
      viewer,
    );
  }

  @Remote(arg.id('organization'), arg.id('userId'), arg.viewer())
  setSso(organization: string, userId: string, viewer: Viewer) {
    return this.run(
      organization,
      { type: 'SetMemberAsSso', userId, at: this.runner.now(), by: viewer.userId },
      viewer,
    );
  }

  /**
   * Records that the caller was seen, at most once a minute (the views are checked first so that a
   * ping in that minute appends nothing, and the aggregate enforces it against racing pings), and
   * answers claims about the caller signed with the visitor claims key.
   */
  @Remote(arg.id('organization'), arg.viewer())
  async ping(organization: string, viewer: Viewer) {
    const now = this.runner.now();
    const details = await this.views.get(MEMBER_DETAILS, memberKey(organization, viewer.userId));
    const last = details?.lastSeenAt ? Date.parse(details.lastSeenAt) : undefined;
    let position = 0;
    if (last === undefined || now - last >= SEEN_EVERY_MS) {
      ({ position } = await this.run(
        organization,
        { type: 'RecordMemberSeen', userId: viewer.userId, at: now },
        viewer,
      ));
    }
    return {
      position,
      serviceVisitorClaims: this.claims.sign({ sub: viewer.userId, organization }, now),
    };
  }

  /** The public keys that verify the visitor claims. */
  @Remote()
  jwks() {
    return this.claims.jwks();
  }
}
