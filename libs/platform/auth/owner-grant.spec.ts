import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DomainError } from '../domain/decider';
import { type OwnerCheck, organizationScope } from '../feature/route-scope';
import { SqliteReadStore } from '../readstore/sqlite-read-store';
import { checkArgs, remoteMethods } from '../rpc/remote-method';
import { Access, MEMBERS } from './access';

const viewer = (userId: string) => ({ userId, tokenId: 't', correlationId: 'c' });
const owners: OwnerCheck = { collection: 'owned', id: 'thing1', role: 'owner' };

describe('Access.authorize with an owner check (@OwnersMay)', () => {
  let dir: string;
  let views: SqliteReadStore;
  let access: Access;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'owner-grant-'));
    views = new SqliteReadStore({ path: join(dir, 'views.sqlite') });
    const member = (userId: string, role: string) => ({
      collection: MEMBERS,
      id: `o1:${userId}`,
      doc: { id: `o1:${userId}`, organization: 'o1', userId, role, joinedAt: '' },
    });
    const owned = (userId: string, role: string) => ({
      collection: 'owned',
      id: `thing1:${userId}`,
      doc: { id: `thing1:${userId}`, role },
    });
    await views.commit([
      member('owner', 'read'),
      member('plain', 'read'),
      owned('owner', 'owner'),
      owned('plain', 'member'),
      owned('outsider', 'owner'),
    ]);
    access = new Access(views);
  });
  afterAll(async () => {
    await views.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const kind = (promise: Promise<unknown>) =>
    promise.then(
      () => 'allowed',
      (error: unknown) => (error instanceof DomainError ? error.kind : String(error)),
    );

  it("lets a member whose role is too low through when they own the route's resource", async () => {
    expect(await kind(access.authorize(organizationScope(), 'o1', viewer('owner'), 'admin', owners))).toBe(
      'allowed',
    );
  });

  it('still refuses other members, and anyone without the check', async () => {
    expect(await kind(access.authorize(organizationScope(), 'o1', viewer('plain'), 'admin', owners))).toBe(
      'forbidden',
    );
    expect(await kind(access.authorize(organizationScope(), 'o1', viewer('owner'), 'admin'))).toBe(
      'forbidden',
    );
  });

  it('hides the organization from a non-member, owner or not', async () => {
    expect(await kind(access.authorize(organizationScope(), 'o1', viewer('outsider'), 'admin', owners))).toBe(
      'not_found',
    );
  });

  it('takes the check over the internal transport in exactly its shape', () => {
    const specs = remoteMethods(Access).get('authorize') ?? [];
    const args = [organizationScope(), 'o1', viewer('owner'), 'admin'];
    expect(checkArgs('Access.authorize', specs, [...args, owners])[4]).toEqual(owners);
    expect(checkArgs('Access.authorize', specs, [...args, null])[4]).toBeUndefined();
    expect(() => checkArgs('Access.authorize', specs, [...args, { ...owners, extra: 1 }])).toThrow(/owner/);
  });
});
