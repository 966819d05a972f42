import { organizationAggregate } from '@app/organizations/domain/organization.aggregate';
import { type GrantCommand, grantAggregate } from '@app/permissions/domain/grant.aggregate';
import { Access, MEMBERS, type Viewer } from '@app/platform/auth/access';
import { CONTENT_ACCESS } from '@app/platform/auth/auth-views';
import { memberKey } from '@app/platform/auth/member-key';
import type { Config } from '@app/platform/config/config';
import { CONFIG } from '@app/platform/config/config.module';
import { DAY_MS, invalid, notFound } from '@app/platform/domain/decider';
import { atLeast, type Role } from '@app/platform/domain/roles';
import { READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import { arg, Remote } from '@app/platform/rpc/remote-method';
import { apiContext, type WriteResult } from '@app/platform/write/command-context';
import { CommandRunner } from '@app/platform/write/command-runner';
import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { inviteLinkAggregate } from '../domain/invite-link.aggregate';
import {
  admittedRole,
  grantedLevel,
  type InviteLinkCommand,
  type InviteRole,
  type InviteTarget,
  legacyInviteIdOf,
  newInviteId,
} from '../domain/invite-link.decider';
import { memberInvitesAggregate } from '../domain/member-invites.aggregate';
import { INVITE_LINKS, type InviteLinkDoc } from '../read/invite.projection';

/**
 * GitBook's `CreateOrganizationInvite` and the body of `updateOrganizationInviteById`: a `role` in the
 * organization, or a `level` in a space or collection (joining then makes a guest of a newcomer); null
 * for a guest.
 */
export interface InviteLinkInput {
  role?: InviteRole;
  level?: InviteRole;
  space?: string;
  collection?: string;
}

/** GitBook's `InviteUsersToOrganization`: each entry an email, or `{email, role}`; a null role, a guest. */
export interface InviteUsersInput {
  emails: unknown[];
  role?: InviteRole;
  sso?: boolean;
}

const NO_WRITE: WriteResult = { position: 0, revision: -1 };

/** Invite links and email invites; the routes checked the caller's role, except for joining. */
@Injectable()
export class InviteService {
  constructor(
    private readonly bus: CommandBus,
    private readonly runner: CommandRunner,
    @Inject(READ_STORE) private readonly views: ReadStore,
    @Inject(CONFIG) private readonly config: Config,
    private readonly access: Access,
  ) {}

  /** Where the write landed, and nothing of the link's state (its key hash stays on the write side). */
  private async run(inviteId: string, command: InviteLinkCommand, viewer: Viewer): Promise<WriteResult> {
    const { position, revision } = await this.bus.execute(
      inviteLinkAggregate.message(inviteId, command, apiContext(viewer)),
    );
    return { position, revision };
  }

  /**
   * Adds the user unless they are a member already (a null role: as a guest; `sso`: as an SSO member);
   * `added` says which.
   */
  private async admit(
    organization: string,
    userId: string,
    role: Role | null,
    invite: string,
    viewer: Viewer,
    sso = false,
  ) {
    const result = await this.bus.execute(
      organizationAggregate.message(
        organization,
        { type: 'AdmitMember', userId, role, invite, ...(sso ? { sso } : {}), at: this.runner.now() },
        apiContext(viewer),
      ),
    );
    return { position: result.position, revision: result.revision, added: (result.events?.length ?? 0) > 0 };
  }

  /** The link must belong to the organization of the path. */
  private async link(organization: string, inviteId: string): Promise<InviteLinkDoc> {
    const doc = await this.views.get(INVITE_LINKS, inviteId);
    if (!doc || doc.organization !== organization) throw notFound('Invite not found');
    return doc;
  }

  /** What a create body opens: the organization with a role, or a space or collection of it with a level. */
  private async opened(
    organization: string,
    body: InviteLinkInput,
  ): Promise<{ role: InviteRole; target?: InviteTarget }> {
    const { role, level, space, collection } = body;
    if (role !== undefined) {
      if (level !== undefined || space !== undefined || collection !== undefined)
        throw invalid('role: give a role, or a level with a space or a collection, not both');
      return { role };
    }
    if (level === undefined) throw invalid('role: give a role, or a level with a space or a collection');
    if ((space === undefined) === (collection === undefined))
      throw invalid('space: a level needs a space or a collection (one of them)');
    const target: InviteTarget =
      space !== undefined ? { kind: 'space', id: space } : { kind: 'collection', id: collection as string };
    const access = await this.views.get(CONTENT_ACCESS, target.id);
    if (!access || access.kind !== target.kind || access.organization !== organization)
      throw invalid(`${target.kind}: no such ${target.kind} in this organization`);
    return { role: level, target };
  }

  /** A new link, whose random id is what joining takes. */
  @Remote(arg.id('organization'), arg.object<InviteLinkInput>('body'), arg.viewer())
  async create(organization: string, body: InviteLinkInput, viewer: Viewer) {
    const { role, target } = await this.opened(organization, body);
    const inviteId = newInviteId();
    const result = await this.run(
      inviteId,
      {
        type: 'CreateInviteLink',
        inviteId,
        organization,
        role,
        ...(target ? { target } : {}),
        at: this.runner.now(),
      },
      viewer,
    );
    return { inviteId, ...result };
  }

  @Remote(arg.id('organization'), arg.id('inviteId'), arg.object<InviteLinkInput>('body'), arg.viewer())
  async update(organization: string, inviteId: string, body: InviteLinkInput, viewer: Viewer) {
    const link = await this.link(organization, inviteId);
    // A link to the organization changes its role, one to content its level.
    const field = link.target ? 'level' : 'role';
    const other = link.target ? body.role : body.level;
    const role = body[field];
    if (
      role === undefined ||
      other !== undefined ||
      body.space !== undefined ||
      body.collection !== undefined
    )
      throw invalid(`${field}: this link takes ${field === 'role' ? 'a role' : 'a level'}, and nothing else`);
    return this.run(inviteId, { type: 'UpdateInviteLink', role, at: this.runner.now() }, viewer);
  }

  /** `existed: false` when there was no such link (GitBook answers 204 then, 205 otherwise). */
  @Remote(arg.id('organization'), arg.id('inviteId'), arg.viewer())
  async delete(organization: string, inviteId: string, viewer: Viewer) {
    const doc = await this.views.get(INVITE_LINKS, inviteId);
    if (!doc || doc.organization !== organization) return { ...NO_WRITE, existed: false };
    const result = await this.run(inviteId, { type: 'DeleteInviteLink', at: this.runner.now() }, viewer);
    return { ...result, existed: true };
  }

  /**
   * Joins with a link's id (or a legacy link's key), admitted only if the link, read from the log itself,
   * is live and belongs to the organization: a deleted link refuses on every replica at once. A link to
   * the organization admits with its role (a guest for null), and a member already in it has nothing to
   * join (their role stays). A link to a space or collection admits a newcomer as a guest, then grants
   * its level there to whoever has less.
   */
  @Remote(arg.id('organization'), arg.id('inviteId'), arg.viewer())
  async join(organization: string, given: string, viewer: Viewer): Promise<WriteResult> {
    const member = await this.views.get(MEMBERS, memberKey(organization, viewer.userId));
    let { state } = await this.runner.current(inviteLinkAggregate, given);
    if (state.status === 'none')
      ({ state } = await this.runner.current(inviteLinkAggregate, legacyInviteIdOf(given)));
    const maxAgeMs = this.config.inviteLinkMaxAgeDays * DAY_MS;
    let role: InviteRole;
    try {
      role = admittedRole(state, organization, given, { now: this.runner.now(), maxAgeMs });
    } catch (error) {
      // A member has nothing to join, whatever they present.
      if (member) return NO_WRITE;
      throw error;
    }
    if (state.status !== 'active') throw notFound('Invite not found');
    const { id: inviteId, target } = state;
    if (!target) {
      if (member) return NO_WRITE;
      const { position, revision } = await this.admit(organization, viewer.userId, role, inviteId, viewer);
      return { position, revision };
    }
    const access = await this.views.get(CONTENT_ACCESS, target.id);
    if (!access || access.organization !== organization) throw notFound('Invite not found');
    let written = NO_WRITE;
    if (!member) written = await this.admit(organization, viewer.userId, null, inviteId, viewer);
    const level = grantedLevel(role);
    if (atLeast(await this.access.roleOf(target.id, viewer.userId), level)) return written;
    const grant = { kind: target.kind, resourceId: target.id, organization };
    const command: GrantCommand = {
      type: 'Grant',
      target: grant,
      users: [viewer.userId],
      teams: [],
      role: level,
      at: this.runner.now(),
    };
    return this.bus.execute(grantAggregate.message(target.id, command, apiContext(viewer)));
  }

  /**
   * Invites people by email, each with a role (null: a guest): the invitation is recorded, and whoever has
   * or later makes an account with that email becomes a member (a member keeps their role); with `sso`,
   * an SSO member, in the same write as their admission. `users` names nobody, as nobody is added by the
   * request itself.
   */
  @Remote(arg.id('organization'), arg.object<InviteUsersInput>('body'), arg.viewer())
  async inviteUsers(organization: string, body: InviteUsersInput, viewer: Viewer) {
    const sso = body.sso === true;
    const fallback: InviteRole = body.role === undefined ? 'read' : body.role;
    const invites = body.emails.map((entry, i) => {
      if (typeof entry === 'string') return { email: entry, role: fallback, sso };
      const { email, role } = (entry ?? {}) as { email?: unknown; role?: unknown };
      const keys = entry !== null && typeof entry === 'object' ? Object.keys(entry).sort().join() : '';
      if (typeof email !== 'string' || keys !== 'email,role') {
        throw invalid(`emails[${i}] must be an email, or {email, role}`);
      }
      return { email, role: role as InviteRole, sso };
    });
    // Every email is recorded alike, whether or not an account has it: the answer says nothing of the
    // accounts on this server. A job admits the account of an email that has one (`AdmitInvitedAccounts`),
    // and one created later with it (`AdmitInvitedUsers`).
    const written = await this.bus.execute(
      memberInvitesAggregate.message(
        organization,
        { type: 'InviteMembers', organization, invites, at: this.runner.now() },
        apiContext(viewer),
      ),
    );
    const invited = new Set(invites.map((invite) => invite.email.toLowerCase())).size;
    return { position: written.position, users: [] as string[], invited };
  }
}
