import { fold } from '@app/platform/domain/decider';
import { spec } from '@app/platform/domain/decider.testing';
import { ID_PATTERN } from '@app/platform/domain/ids';
import type { Role } from '@app/platform/domain/roles';
import {
  admittedRole,
  type InviteLinkEvent,
  inviteIdOf,
  inviteKeyHash,
  inviteLinkDecider,
  inviteLinkStream,
  newInviteKey,
} from './invite-link.decider';

const t0 = Date.parse('2026-01-01T00:00:00Z');
const t1 = t0 + 60_000;
const iso = (ms: number) => new Date(ms).toISOString();
const KEY = 'k'.repeat(32);
const base = { inviteId: 'inv1', organization: 'org1' };

const created = (role: Role = 'read'): InviteLinkEvent => ({
  type: 'InviteLinkCreated',
  data: { ...base, role, keyHash: inviteKeyHash(KEY), createdAt: iso(t0) },
});
const updated = (role: Role): InviteLinkEvent => ({
  type: 'InviteLinkUpdated',
  data: { ...base, role, updatedAt: iso(t1) },
});
const deleted: InviteLinkEvent = { type: 'InviteLinkDeleted', data: { ...base, deletedAt: iso(t1) } };

const link = spec(inviteLinkDecider);
const create = {
  type: 'CreateInviteLink' as const,
  ...base,
  role: 'read' as Role,
  keyHash: inviteKeyHash(KEY),
  at: t0,
};

describe('invite link decider', () => {
  it('names the stream after the link', () => {
    expect(inviteLinkStream('inv1')).toBe('invite-link-inv1');
  });

  it('makes keys of 192 random bits whose link id is a path id and reveals nothing of the key', () => {
    const keys = new Set(Array.from({ length: 100 }, () => newInviteKey()));
    expect(keys.size).toBe(100);
    for (const key of keys) {
      expect(Buffer.from(key, 'base64url')).toHaveLength(24);
      expect(key).toMatch(ID_PATTERN);
      expect(inviteIdOf(key)).toMatch(ID_PATTERN);
      expect(inviteIdOf(key)).not.toContain(key.slice(0, 8));
      expect(inviteKeyHash(key)).not.toContain(key);
    }
    expect(inviteIdOf(KEY)).toBe(inviteIdOf(KEY));
  });

  describe('CreateInviteLink', () => {
    it('creates a link with its role and the hash of its key only', () => {
      const state = link.when(create).thenEmits([created()]);
      expect(JSON.stringify(state)).not.toContain(KEY);
    });

    it('rejects a role that is not a member role (guests are not members)', () => {
      link.when({ ...create, role: null as unknown as Role }).thenThrows('invalid', /role/);
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
      expect(state).toStrictEqual({ status: 'deleted', id: 'inv1', organization: 'org1' });
    });

    it('rejects a missing or deleted link', () => {
      link.when({ type: 'DeleteInviteLink', at: t1 }).thenThrows('not_found');
      link.given([created(), deleted]).when({ type: 'DeleteInviteLink', at: t1 }).thenThrows('not_found');
    });
  });

  describe('admittedRole', () => {
    const state = (events: InviteLinkEvent[]) => fold(inviteLinkDecider, events);

    it('gives the link role, as it is now, to whoever has the key', () => {
      expect(admittedRole(state([created()]), 'org1', inviteKeyHash(KEY))).toBe('read');
      expect(admittedRole(state([created(), updated('admin')]), 'org1', inviteKeyHash(KEY))).toBe('admin');
    });

    it('refuses an expired link to the holder of its key only (410), and never expires with no maximum age', () => {
      const day = 24 * 60 * 60 * 1000;
      const hash = inviteKeyHash(KEY);
      const expiry = { now: t0 + 31 * day, maxAgeMs: 30 * day };
      expect(() => admittedRole(state([created()]), 'org1', hash, expiry)).toThrow('expired');
      expect(() => admittedRole(state([created()]), 'org1', inviteKeyHash('other'), expiry)).toThrow(
        'not found',
      );
      expect(admittedRole(state([created()]), 'org1', hash, { now: t0 + 29 * day, maxAgeMs: 30 * day })).toBe(
        'read',
      );
      expect(admittedRole(state([created()]), 'org1', hash, { now: t0 + 3650 * day, maxAgeMs: 0 })).toBe(
        'read',
      );
    });

    it('refuses alike a wrong key, another organization, a deleted or missing link', () => {
      const refusals: [InviteLinkEvent[], string, string][] = [
        [[created()], 'org1', inviteKeyHash('other')],
        [[created()], 'org1', 'not hex'],
        [[created()], 'org2', inviteKeyHash(KEY)],
        [[created(), deleted], 'org1', inviteKeyHash(KEY)],
        [[], 'org1', inviteKeyHash(KEY)],
      ];
      for (const [events, organization, hash] of refusals) {
        expect(() => admittedRole(state(events), organization, hash)).toThrow('Invite not found');
      }
    });
  });
});
