import { CONTENT_ACCESS, type ContentAccessDoc } from '@app/platform/auth/auth-views';
import { effectiveRole } from '@app/platform/domain/content-access';
import { type DefaultLevel, ROLES, type Role } from '@app/platform/domain/roles';
import type { RecordedEvent } from '@app/platform/eventstore/event-store.port';
import { givenProjection, recorded } from '@app/platform/projector/projection.testing';
import fc from 'fast-check';
import { CONTENT_GRANTS, contentAccessProjection } from './content-access.projection';

const at = '2026-01-01T00:00:00.000Z';
const target = (resourceId: string, kind: 'space' | 'collection' = 'collection') => ({
  kind,
  resourceId,
  organization: 'o1',
});
const collection = (id: string, parent: string | null = null, defaultLevel: DefaultLevel = 'inherit') =>
  recorded('CollectionCreated', { id, organization: 'o1', parent, defaultLevel, title: id, createdAt: at });
const space = (id: string, parent: string | null = null, defaultLevel: DefaultLevel = 'inherit') =>
  recorded('SpaceCreated', { id, organization: 'o1', parent, defaultLevel, title: id, createdAt: at });
const grantUser = (resource: string, userId: string, role: Role, kind?: 'space' | 'collection') =>
  recorded('UserAccessGranted', { ...target(resource, kind), userId, role, grantedAt: at });
const grantTeam = (resource: string, teamId: string, role: Role, kind?: 'space' | 'collection') =>
  recorded('TeamAccessGranted', { ...target(resource, kind), teamId, role, grantedAt: at });
const revokeUser = (resource: string, userId: string) =>
  recorded('UserAccessRevoked', { ...target(resource), userId, revokedAt: at });
const revokeTeam = (resource: string, teamId: string) =>
  recorded('TeamAccessRevoked', { ...target(resource), teamId, revokedAt: at });
const moved = (kind: 'space' | 'collection', id: string, parent: string | null) =>
  kind === 'space'
    ? recorded('SpaceMoved', { spaceId: id, parent, position: 1, movedAt: at })
    : recorded('CollectionMoved', { collectionId: id, parent, position: 1, movedAt: at });
const level = (kind: 'space' | 'collection', id: string, defaultLevel: DefaultLevel) =>
  kind === 'space'
    ? recorded('SpaceUpdated', { spaceId: id, changes: { defaultLevel }, updatedAt: at })
    : recorded('CollectionUpdated', { collectionId: id, changes: { defaultLevel }, updatedAt: at });

const access = givenProjection(contentAccessProjection);

async function docOf(events: RecordedEvent[], id: string): Promise<ContentAccessDoc | undefined> {
  const docs = await access.given(...events).documents(CONTENT_ACCESS);
  return docs.find((doc) => doc.id === id);
}

describe('content access projection', () => {
  it('resolves inherit up the tree, and a grant on a collection reaches everything below it', async () => {
    const events = [
      collection('c1', null, 'read'),
      collection('c2', 'c1'),
      space('s1', 'c2'),
      grantTeam('c1', 't1', 'edit'),
      grantUser('c2', 'u1', 'comment'),
      grantUser('s1', 'u1', 'read', 'space'),
    ];
    expect(await docOf(events, 's1')).toMatchObject({
      membersLevel: 'read',
      users: { u1: 'comment' },
      teams: { t1: 'edit' },
      own: { users: { u1: 'read' }, teams: {} },
    });
    const scenario = access.given(...events);
    await scenario.thenReplayChangesNothing();
    await scenario.thenRebuildMatches();
  });

  it('follows moves, default levels, revocations and deleted collections', async () => {
    const events = [
      collection('c1', null, null),
      collection('c2', 'c1'),
      space('s1', 'c2'),
      grantUser('c1', 'u1', 'admin'),
      grantTeam('c2', 't1', 'read'),
      level('collection', 'c1', 'edit'),
      revokeTeam('c2', 't1'),
      recorded('CollectionDeleted', { collectionId: 'c2', organization: 'o1', parent: 'c1', deletedAt: at }),
    ];
    expect(await docOf(events, 's1')).toMatchObject({
      parent: 'c1',
      membersLevel: 'edit',
      users: { u1: 'admin' },
      teams: {},
    });
    const after = [...events, moved('space', 's1', null), revokeUser('c1', 'u1')];
    expect(await docOf(after, 's1')).toMatchObject({ membersLevel: 'organization', users: {}, teams: {} });
    const scenario = access.given(...after);
    await scenario.thenReplayChangesNothing();
    await scenario.thenRebuildMatches();
  });

  it('drops the grants of a deleted team and of a member who leaves, and moves grants with a transfer', async () => {
    const events = [
      collection('c1'),
      space('s1', 'c1'),
      grantTeam('c1', 't1', 'edit'),
      grantUser('c1', 'u1', 'edit'),
      grantUser('c1', 'u2', 'read'),
      recorded('TeamDeleted', { teamId: 't1', organization: 'o1', deletedAt: at }),
      recorded('MemberRemoved', { organizationId: 'o1', userId: 'u1', removedAt: at }),
    ];
    expect(await docOf(events, 's1')).toMatchObject({ users: { u2: 'read' }, teams: {} });
    const transferred = [
      ...events,
      recorded('CollectionTransferred', {
        collectionId: 'c1',
        fromOrganization: 'o1',
        organization: 'o2',
        position: 1,
        contents: { collections: [], spaces: ['s1'] },
        transferredAt: at,
      }),
    ];
    expect(await docOf(transferred, 's1')).toMatchObject({ organization: 'o2', users: { u2: 'read' } });
    const grants = await access.given(...transferred).documents(CONTENT_GRANTS);
    expect(grants.map((grant) => [grant.id, grant.organization])).toEqual([['c1:user:u2', 'o2']]);
  });
});

/**
 * Property: after any sequence of grants, revocations, moves, default levels and team deletions, the
 * effective role read from the projected documents equals one computed from scratch by walking the
 * tree the events describe.
 */
describe('content access: projected effective roles equal a from-scratch computation', () => {
  const COLLECTIONS = ['c1', 'c2', 'c3', 'c4'];
  const SPACES = ['s1', 's2', 's3'];
  const USERS = ['u1', 'u2', 'u3'];
  const TEAMS = ['t1', 't2'];
  const TEAM_OF: Record<string, string[]> = { u1: ['t1'], u2: ['t1', 't2'], u3: [] };
  const LEVELS: DefaultLevel[] = [...ROLES, 'inherit', null];
  const role = fc.constantFrom(...ROLES);
  const resource = fc.constantFrom(...COLLECTIONS, ...SPACES);
  const op = fc.oneof(
    fc.record({ op: fc.constant('grantUser'), resource, who: fc.constantFrom(...USERS), role }),
    fc.record({ op: fc.constant('grantTeam'), resource, who: fc.constantFrom(...TEAMS), role }),
    fc.record({ op: fc.constant('revokeUser'), resource, who: fc.constantFrom(...USERS) }),
    fc.record({ op: fc.constant('revokeTeam'), resource, who: fc.constantFrom(...TEAMS) }),
    fc.record({ op: fc.constant('move'), resource, parent: fc.constantFrom(null, ...COLLECTIONS) }),
    fc.record({ op: fc.constant('level'), resource, level: fc.constantFrom(...LEVELS) }),
    fc.record({ op: fc.constant('deleteTeam'), who: fc.constantFrom(...TEAMS) }),
  );
  const orgRoles = fc.record({
    u1: fc.constantFrom<Role | null>(null, ...ROLES),
    u2: fc.constantFrom<Role | null>(null, ...ROLES),
    u3: fc.constantFrom<Role | null>(null, ...ROLES),
  });

  type Op = {
    op: string;
    resource?: string;
    who?: string;
    role?: Role;
    parent?: string | null;
    level?: DefaultLevel;
  };

  /** The model: the tree and grants as plain maps, and the events that describe each step. */
  function play(ops: Op[]) {
    const parent = new Map<string, string | null>();
    const levels = new Map<string, DefaultLevel>();
    const grants = new Map<string, Map<string, Role>>();
    const deletedTeams = new Set<string>();
    const events: RecordedEvent[] = [];
    const kind = (id: string) => (id.startsWith('s') ? 'space' : 'collection');
    for (const id of [...COLLECTIONS, ...SPACES]) {
      parent.set(id, null);
      levels.set(id, 'inherit');
      grants.set(id, new Map());
      events.push(kind(id) === 'space' ? space(id) : collection(id));
    }
    const above = (id: string | null): string[] =>
      id === null ? [] : [id, ...above(parent.get(id) ?? null)];
    for (const step of ops) {
      const id = step.resource as string;
      const k = kind(id ?? 'c');
      switch (step.op) {
        case 'grantUser':
        case 'grantTeam': {
          const team = step.op === 'grantTeam';
          if (team && deletedTeams.has(step.who as string)) break;
          grants.get(id)?.set(`${team ? 't' : 'u'}:${step.who}`, step.role as Role);
          const ev = team ? grantTeam : grantUser;
          events.push(ev(id, step.who as string, step.role as Role, k));
          break;
        }
        case 'revokeUser':
        case 'revokeTeam': {
          const key = `${step.op === 'revokeTeam' ? 't' : 'u'}:${step.who}`;
          if (!grants.get(id)?.delete(key)) break;
          const data = { ...target(id, k), revokedAt: at };
          events.push(
            step.op === 'revokeTeam'
              ? recorded('TeamAccessRevoked', { ...data, teamId: step.who })
              : recorded('UserAccessRevoked', { ...data, userId: step.who }),
          );
          break;
        }
        case 'move': {
          const to = step.parent ?? null;
          // A collection never goes into itself or below itself (the service refuses that).
          if (to !== null && above(to).includes(id)) break;
          parent.set(id, to);
          events.push(moved(k, id, to));
          break;
        }
        case 'level':
          levels.set(id, step.level as DefaultLevel);
          events.push(level(k, id, step.level as DefaultLevel));
          break;
        case 'deleteTeam': {
          const team = step.who as string;
          if (deletedTeams.has(team)) break;
          deletedTeams.add(team);
          for (const held of grants.values()) held.delete(`t:${team}`);
          events.push(recorded('TeamDeleted', { teamId: team, organization: 'o1', deletedAt: at }));
          break;
        }
      }
    }
    /** Walks the tree from `id` up, as nothing in the projection does. */
    const scratch = (userId: string, orgRole: Role | null, id: string): Role | null => {
      if (orgRole === 'admin') return 'admin';
      const chain = above(id);
      const own = chain.map((node) => levels.get(node)).find((l) => l !== 'inherit');
      const members = own === undefined ? orgRole : own;
      const candidates: (Role | null)[] = [orgRole === null ? null : (members ?? null)];
      const teams = TEAM_OF[userId].filter((team) => !deletedTeams.has(team));
      for (const node of chain) {
        candidates.push(grants.get(node)?.get(`u:${userId}`) ?? null);
        for (const team of teams) candidates.push(grants.get(node)?.get(`t:${team}`) ?? null);
      }
      const best = Math.max(-1, ...candidates.map((c) => (c ? ROLES.indexOf(c) : -1)));
      return best < 0 ? null : ROLES[best];
    };
    return { events, scratch, deletedTeams };
  }

  it('holds for random sequences', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 30 }), orgRoles, async (ops, roles) => {
        const { events, scratch, deletedTeams } = play(ops as Op[]);
        const docs = await access.given(...events).documents(CONTENT_ACCESS);
        for (const doc of docs) {
          for (const team of deletedTeams) expect(doc.teams[team]).toBeUndefined();
          for (const userId of USERS) {
            const orgRole = roles[userId as keyof typeof roles];
            const teams = TEAM_OF[userId].filter((team) => !deletedTeams.has(team));
            const projected = effectiveRole(orgRole, doc, userId, teams);
            expect([doc.id, userId, projected]).toEqual([doc.id, userId, scratch(userId, orgRole, doc.id)]);
          }
        }
      }),
      { numRuns: 200 },
    );
  });
});
