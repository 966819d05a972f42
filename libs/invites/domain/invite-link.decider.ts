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
 * A new link's id: 192 random bits. GitBook joins with the id itself (`joinOrganizationWithInvite`), so
 * the id is the link's secret; only admins list or read links, as only they hand them out.
 */
export function newInviteId(): string {
  return randomBytes(24).toString('base64url');
}

/**
 * Links made before ids were the secret carry a separate key (only its hash kept) and an id derived from
 * it: a join with such a key still finds its link, by this id, and is checked against the hash.
 */
export function legacyInviteIdOf(key: string): string {
  return createHash('sha256').update(`invite-id:${key}`).digest('base64url').slice(0, 20);
}

/** What a legacy link stores of its key. */
export const legacyKeyHash = (key: string) => hashSecret(key);

/**
 * What a link gives: a member role in the organization (for a link to content, the level there), or null
 * for a guest. A guest link to the organization admits a guest, who reaches only what is shared with them;
 * a guest link to a space or collection shares it with them at the least level, `read`.
 */
export type InviteRole = Role | null;

/** The level a link to content grants: its own, or `read` for a guest link. */
export const grantedLevel = (role: InviteRole): Role => role ?? 'read';

/** What a link to content opens, besides the organization (as a guest): a space or a collection. */
export interface InviteTarget {
  kind: 'space' | 'collection';
  id: string;
}

interface InviteLinkFacts {
  id: string;
  organization: string;
  /** The role in the organization, or for a link to content the level there; null for guests. */
  role: InviteRole;
  target?: InviteTarget;
  /** Links made before ids were the secret: the hash of the key that opens them. */
  keyHash?: string;
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
        role: InviteRole;
        /** Absent since ids are the secret; present in links made before. */
        keyHash?: string;
        createdAt: string;
        target?: InviteTarget;
      };
    }
  | {
      type: 'InviteLinkUpdated';
      data: { inviteId: string; organization: string; role: InviteRole; updatedAt: string };
    }
  | { type: 'InviteLinkDeleted'; data: { inviteId: string; organization: string; deletedAt: string } };

export type InviteLinkCommand =
  | {
      type: 'CreateInviteLink';
      inviteId: string;
      organization: string;
      role: InviteRole;
      target?: InviteTarget;
      at: number;
    }
  | { type: 'UpdateInviteLink'; role: InviteRole; at: number }
  | { type: 'DeleteInviteLink'; at: number };

const iso = (ms: number) => new Date(ms).toISOString();

function live(state: InviteLinkState): InviteLinkFacts {
  if (state.status !== 'active') throw notFound('Invite not found');
  return state;
}

function checkedRole(role: unknown): InviteRole {
  if (role !== null && !isRole(role))
    throw invalid('role must be one of read, comment, edit, review, create, admin, or null (a guest)');
  return role;
}

/**
 * The role a link gives whoever presents `given` to join `organization`: the link's id, or for a link made
 * before ids were the secret also its key. A 404 alike for a link that never existed, was deleted or
 * belongs elsewhere, so nothing tells them apart.
 */
export function admittedRole(
  state: InviteLinkState,
  organization: string,
  given: string,
  expiry: { now: number; maxAgeMs: number } = { now: 0, maxAgeMs: 0 },
): InviteRole {
  if (state.status !== 'active' || state.organization !== organization) throw notFound('Invite not found');
  if (given !== state.id && !(state.keyHash && sameHash(state.keyHash, legacyKeyHash(given))))
    throw notFound('Invite not found');
  // Only the holder of the link learns that it expired (maxAgeMs 0: links never expire).
  if (expiry.maxAgeMs > 0 && expiry.now - state.createdAt > expiry.maxAgeMs) {
    throw new DomainError('gone', 'This invite link has expired; ask for a new one');
  }
  return state.role;
}

function sameHash(stored: string, given: string): boolean {
  const a = Buffer.from(stored, 'hex');
  const b = Buffer.from(given, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
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
        const facts = { id: inviteId, organization, role, createdAt: Date.parse(createdAt) };
        return { status: 'active', ...facts, ...(keyHash ? { keyHash } : {}), ...(target ? { target } : {}) };
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
