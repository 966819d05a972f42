import type { Role } from '@app/platform/domain/roles';
import { documents, projection } from '@app/platform/projector/projection';
import { collectionName, type Doc } from '@app/platform/readstore/read-store.port';
import type { InviteLinkEvent, InviteTarget } from '../domain/invite-link.decider';
import type { MemberInvitesEvent } from '../domain/member-invites.decider';

/** An invite link, without its key or the key's hash: the views never hold what opens it. */
export interface InviteLinkDoc extends Doc {
  organization: string;
  /** The role in the organization, or for a link to content the level there; null for guests. */
  role: Role | null;
  /** Absent: a link to the organization itself. */
  target?: InviteTarget;
  createdAt: string;
  updatedAt: string;
  /** Revision of the link's stream: its ETag. */
  streamRevision: number;
}

/** A pending email invite, keyed `<organization>:<email>`. */
export interface MemberInviteDoc extends Doc {
  organization: string;
  email: string;
  /** Null: the invitee becomes a guest. */
  role: Role | null;
  /** Admitted as an SSO member. */
  sso?: boolean;
  invitedAt: string;
}

export const INVITE_LINKS = collectionName<InviteLinkDoc>('invite_links');
export const MEMBER_INVITES = collectionName<MemberInviteDoc>('member_invites');

export const memberInviteKey = (organization: string, email: string) => `${organization}:${email}`;

/** Invite links and pending email invites of each organization. */
export const inviteProjection = projection<InviteLinkEvent | MemberInvitesEvent>(
  'invites',
  [
    { collection: INVITE_LINKS, fields: ['organization', 'createdAt'] },
    { collection: MEMBER_INVITES, fields: ['email'] },
  ],
  {
    InviteLinkCreated: documents(INVITE_LINKS).put((e) => {
      const { inviteId, organization, role, createdAt, target } = e.data;
      return {
        id: inviteId,
        organization,
        role,
        ...(target ? { target } : {}),
        createdAt,
        updatedAt: createdAt,
        streamRevision: e.revision,
      };
    }),
    InviteLinkUpdated: documents(INVITE_LINKS).update(
      (e) => e.data.inviteId,
      (doc, e) => ({ ...doc, role: e.data.role, updatedAt: e.data.updatedAt, streamRevision: e.revision }),
    ),
    InviteLinkDeleted: documents(INVITE_LINKS).delete((e) => e.data.inviteId),
    MemberInvited: documents(MEMBER_INVITES).put((e) => {
      const { organization, email, role, sso, invitedAt } = e.data;
      return {
        id: memberInviteKey(organization, email),
        organization,
        email,
        role,
        ...(sso ? { sso } : {}),
        invitedAt,
      };
    }),
  },
);
