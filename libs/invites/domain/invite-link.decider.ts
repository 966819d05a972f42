import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  conflict,
  type Decider,
  type Decisions,
  DomainError,
  decideBy,
  invalid,
  notFound,
} from '@app/platform/domain/decider';
import { hashSecret } from '@app/platform/domain/ids';
import { isRole, type Role } from '@app/platform/domain/roles';

/**
 * An invite link's key: 192 random bits, the secret a link carries. Only its hash is kept; the link's
 * public id is derived from the key too, so a join finds the link's stream from the key alone and is
 * decided against the log, never against a view a replica may not have caught up with.
 */
export function newInviteKey(): string {
  return randomBytes(24).toString('base64url');
}

/** The id of the link a key opens: a prefix of the key's hash, which reveals nothing of the key. */
export function inviteIdOf(key: string): string {
  return createHash('sha256').update(`invite-id:${key}`).digest('base64url').slice(0, 20);
}

/** What the link stores of its key. */
export const inviteKeyHash = (key: string) => hashSecret(key);

/** What a link to content opens, besides the organization (as a guest): a space or a collection. */
export interface InviteTarget {
  kind: 'space' | 'collection';
  id: string;
}

interface InviteLinkFacts {
  id: string;
  organization: string;
  /** The role in the organization, or for a link to content the level there. */
  role: Role;
  target?: InviteTarget;
  keyHash: string;
  /** Epoch milliseconds, for the link's expiry. */
  createdAt: number;
}

export type InviteLinkState =
  | { status: 'none' }
  | ({ status: 'active' } & InviteLinkFacts)
  | { status: 'deleted'; id: string; organization: string };

export type InviteLinkEvent =
  | {
      type: 'InviteLinkCreated';
      data: {
        inviteId: string;
        organization: string;
        role: Role;
        keyHash: string;
        createdAt: string;
        target?: InviteTarget;
      };
    }
  | {
      type: 'InviteLinkUpdated';
      data: { inviteId: string; organization: string; role: Role; updatedAt: string };
    }
  | { type: 'InviteLinkDeleted'; data: { inviteId: string; organization: string; deletedAt: string } };

export type InviteLinkCommand =
  | {
      type: 'CreateInviteLink';
      inviteId: string;
      organization: string;
      role: Role;
      keyHash: string;
      target?: InviteTarget;
      at: number;
    }
  | { type: 'UpdateInviteLink'; role: Role; at: number }
  | { type: 'DeleteInviteLink'; at: number };

const iso = (ms: number) => new Date(ms).toISOString();

function live(state: InviteLinkState): InviteLinkFacts {
  if (state.status !== 'active') throw notFound('Invite not found');
  return state;
}

/** Guests (a null role) are not members here, so an invite always names a member role. */
function checkedRole(role: unknown): Role {
  if (!isRole(role)) throw invalid('role must be one of read, comment, edit, review, create, admin');
  return role;
}

/**
 * The role a link gives whoever presents `keyHash` to join `organization`: a 404 alike for a link that
 * never existed, was deleted, belongs elsewhere, or whose key differs, so nothing tells them apart.
 */
export function admittedRole(
  state: InviteLinkState,
  organization: string,
  keyHash: string,
  expiry: { now: number; maxAgeMs: number } = { now: 0, maxAgeMs: 0 },
): Role {
  if (state.status !== 'active' || state.organization !== organization) throw notFound('Invite not found');
  const stored = Buffer.from(state.keyHash, 'hex');
  const given = Buffer.from(keyHash, 'hex');
  if (stored.length !== given.length || !timingSafeEqual(stored, given)) throw notFound('Invite not found');
  // Only the holder of the key learns that the link expired (maxAgeMs 0: links never expire).
  if (expiry.maxAgeMs > 0 && expiry.now - state.createdAt > expiry.maxAgeMs) {
    throw new DomainError('gone', 'This invite link has expired; ask for a new one');
  }
  return state.role;
}

/** What each command decides. */
const decisions: Decisions<InviteLinkCommand, InviteLinkEvent, InviteLinkState> = {
  CreateInviteLink(command, state) {
    if (state.status !== 'none') throw conflict('Invite already exists');
    return [
      {
        type: 'InviteLinkCreated',
        data: {
          inviteId: command.inviteId,
          organization: command.organization,
          role: checkedRole(command.role),
          keyHash: command.keyHash,
          createdAt: iso(command.at),
          ...(command.target ? { target: command.target } : {}),
        },
      },
    ];
  },

  UpdateInviteLink(command, state) {
    const link = live(state);
    const role = checkedRole(command.role);
    if (role === link.role) return [];
    return [
      {
        type: 'InviteLinkUpdated',
        data: { inviteId: link.id, organization: link.organization, role, updatedAt: iso(command.at) },
      },
    ];
  },

  DeleteInviteLink(command, state) {
    const link = live(state);
    return [
      {
        type: 'InviteLinkDeleted',
        data: { inviteId: link.id, organization: link.organization, deletedAt: iso(command.at) },
      },
    ];
  },
};

export const inviteLinkDecider: Decider<InviteLinkCommand, InviteLinkEvent, InviteLinkState> = {
  initialState: { status: 'none' },

  decide: decideBy(decisions),

  evolve(state, event) {
    switch (event.type) {
      case 'InviteLinkCreated': {
        const { inviteId, organization, role, keyHash, createdAt, target } = event.data;
        const facts = { id: inviteId, organization, role, keyHash, createdAt: Date.parse(createdAt) };
        return { status: 'active', ...facts, ...(target ? { target } : {}) };
      }
      case 'InviteLinkUpdated':
        return state.status === 'active' ? { ...state, role: event.data.role } : state;
      case 'InviteLinkDeleted':
        return state.status === 'active'
          ? { status: 'deleted', id: state.id, organization: state.organization }
          : state;
      default:
        return state;
    }
  },
};

export const inviteLinkStream = (inviteId: string) => `invite-link-${inviteId}`;
