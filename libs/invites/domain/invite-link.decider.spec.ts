import { fold } from '@app/platform/domain/decider';
import { spec } from '@app/platform/domain/decider.testing';
import { ID_PATTERN } from '@app/platform/domain/ids';
import type { Role } from '@app/platform/domain/roles';
import {
  admittedRole,
  grantedLevel,
  type InviteLinkEvent,
  type InviteRole,
  inviteLinkDecider,
  inviteLinkStream,
  legacyInviteIdOf,
  legacyKeyHash,
  newInviteId,
} from './invite-link.decider';

const t0 = Date.parse('2026-01-01T00:00:00Z');
const t1 = t0 + 60_000;
const iso = (ms: number) => new Date(ms).toISOString();
const ID = 'i'.repeat(32);
const base = { inviteId: ID, organization: 'org1' };

const created = (role: InviteRole = 'read'): InviteLinkEvent => ({
  type: 'InviteLinkCreated',
  data: { ...base, role, createdAt: iso(t0) },
});
const updated = (role: InviteRole): InviteLinkEvent => ({
  type: 'InviteLinkUpdated',
  data: { ...base, role, updatedAt: iso(t1) },
});
const deleted: InviteLinkEvent = { type: 'InviteLinkDeleted', data: { ...base, deletedAt: iso(t1) } };

/** A link made before ids were the secret: its id derived from a key whose hash it keeps. */
const LEGACY_KEY = 'k'.repeat(32);
const legacy: InviteLinkEvent = {
  type: 'InviteLinkCreated',
  data: {
    inviteId: legacyInviteIdOf(LEGACY_KEY),
    organization: 'org1',
    role: 'edit',
    keyHash: legacyKeyHash(LEGACY_KEY),
    createdAt: iso(t0),
  },
};

const link = spec(inviteLinkDecider);
const create = { type: 'CreateInviteLink' as const, ...base, role: 'read' as InviteRole, at: t0 };

describe('invite link decider', () => {
  it('names the stream after the link', () => {
    expect(inviteLinkStream('inv1')).toBe('invite-link-inv1');
  });

  it('makes ids of 192 random bits, fit for a path', () => {
    const ids = new Set(Array.from({ length: 100 }, () => newInviteId()));
    expect(ids.size).toBe(100);
    for (const id of ids) {
      expect(Buffer.from(id, 'base64url')).toHaveLength(24);
      expect(id).toMatch(ID_PATTERN);
    }
  });

  describe('CreateInviteLink', () => {
    it('creates a link with its role, or null for guests', () => {
      link.when(create).thenEmits([created()]);
      link.when({ ...create, role: null }).thenEmits([created(null)]);
    });

    it('rejects a role that is not a member role', () => {
      link.when({ ...create, role: 'owner' as Role }).thenThrows('invalid', /role/);
    });

    it('rejects creating a link that exists, or existed', () => {
      link
        .given([created()])
        .when(create)
        .thenThrows('conflict', /already exists/);
      link
        .given([created(), deleted])
        .when(create)
        .thenThrows('conflict', /already exists/);
    });
  });

  describe('UpdateInviteLink', () => {
    it('changes the role, and nothing when it is the same', () => {
      link
        .given([created()])
        .when({ type: 'UpdateInviteLink', role: 'edit', at: t1 })
        .thenEmits([updated('edit')]);
      link.given([created()]).when({ type: 'UpdateInviteLink', role: 'read', at: t1 }).thenNothing();
      link
        .given([created()])
        .when({ type: 'UpdateInviteLink', role: null, at: t1 })
        .thenEmits([updated(null)]);
    });

    it('rejects a bad role, a missing or a deleted link', () => {
      link
        .given([created()])
        .when({ type: 'UpdateInviteLink', role: 'x' as Role, at: t1 })
        .thenThrows('invalid', /role/);
      link.when({ type: 'UpdateInviteLink', role: 'edit', at: t1 }).thenThrows('not_found');
      link
        .given([created(), deleted])
        .when({ type: 'UpdateInviteLink', role: 'edit', at: t1 })
        .thenThrows('not_found');
    });
  });

  describe('DeleteInviteLink', () => {
    it('deletes a link', () => {
      const state = link.given([created()]).when({ type: 'DeleteInviteLink', at: t1 }).thenEmits([deleted]);
      expect(state).toStrictEqual({ status: 'deleted', id: ID, organization: 'org1' });
    });

    it('rejects a missing or deleted link', () => {
      link.when({ type: 'DeleteInviteLink', at: t1 }).thenThrows('not_found');
      link.given([created(), deleted]).when({ type: 'DeleteInviteLink', at: t1 }).thenThrows('not_found');
    });
  });

  describe('admittedRole', () => {
    const state = (events: InviteLinkEvent[]) => fold(inviteLinkDecider, events);

    it('gives the link role, as it is now, to whoever presents its id', () => {
      expect(admittedRole(state([created()]), 'org1', ID)).toBe('read');
      expect(admittedRole(state([created(), updated('admin')]), 'org1', ID)).toBe('admin');
      expect(admittedRole(state([created(null)]), 'org1', ID)).toBeNull();
    });

    it('opens a legacy link with its key or its id, never with the hash', () => {
      const old = state([legacy]);
      expect(admittedRole(old, 'org1', LEGACY_KEY)).toBe('edit');
      expect(admittedRole(old, 'org1', legacyInviteIdOf(LEGACY_KEY))).toBe('edit');
      expect(() => admittedRole(old, 'org1', legacyKeyHash(LEGACY_KEY))).toThrow('Invite not found');
      expect(() => admittedRole(old, 'org1', 'k'.repeat(31))).toThrow('Invite not found');
    });

    it('refuses an expired link (410), and never expires with no maximum age', () => {
      const day = 24 * 60 * 60 * 1000;
      const expiry = { now: t0 + 31 * day, maxAgeMs: 30 * day };
      expect(() => admittedRole(state([created()]), 'org1', ID, expiry)).toThrow('expired');
      expect(() => admittedRole(state([created()]), 'org1', 'other', expiry)).toThrow('not found');
      expect(admittedRole(state([created()]), 'org1', ID, { now: t0 + 29 * day, maxAgeMs: 30 * day })).toBe(
        'read',
      );
      expect(admittedRole(state([created()]), 'org1', ID, { now: t0 + 3650 * day, maxAgeMs: 0 })).toBe(
        'read',
      );
    });

    it('refuses alike another id, another organization, a deleted or missing link', () => {
      const refusals: [InviteLinkEvent[], string, string][] = [
        [[created()], 'org1', 'other'],
        [[created()], 'org2', ID],
        [[created(), deleted], 'org1', ID],
        [[], 'org1', ID],
      ];
      for (const [events, organization, given] of refusals) {
        expect(() => admittedRole(state(events), organization, given)).toThrow('Invite not found');
      }
    });

    it('grants a guest link to content at the least level', () => {
      expect(grantedLevel(null)).toBe('read');
      expect(grantedLevel('edit')).toBe('edit');
    });
  });
});
