import { IdentityService } from '@app/identity/write/identity.commands';
import { OrganizationService } from '@app/organizations/write/organization.commands';
import { READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import { addUser, liveProjector, SETUP, useTestApp } from '../support/app-harness';

/**
 * Tokens and roles are kept in memory between requests: a revocation or a role change must still
 * take effect on the very next request.
 */
describe('authentication and roles kept in memory', () => {
  const current = useTestApp();

  const auditStatus = async (token: string) =>
    (await current().http('GET', `/v1/orgs/${current().organizationId}/audit-events?limit=1`, { token }))
      .status;

  it('serves repeated requests without reading the token and membership again', async () => {
    const app = current();
    const admin = await addUser(app, { organizationId: app.organizationId, role: 'admin' });
    expect(await auditStatus(admin.token)).toBe(200);
    const views = app.built.app.get<ReadStore>(READ_STORE);
    const reads: string[] = [];
    const get = views.get.bind(views);
    views.get = (collection, id) => {
      reads.push(collection);
      return get(collection, id);
    };
    try {
      expect(await auditStatus(admin.token)).toBe(200);
    } finally {
      views.get = get;
    }
    expect(reads).not.toContain('tokens');
    expect(reads).not.toContain('members');
  });

  it('answers 403 right after a role is lowered, and 200 again once it is raised', async () => {
    const app = current();
    const user = await addUser(app, { organizationId: app.organizationId, role: 'admin' });
    expect(await auditStatus(user.token)).toBe(200);
    const orgs = app.built.app.get(OrganizationService);
    const lowered = await orgs.changeRole(app.organizationId, user.userId, 'read', SETUP);
    await liveProjector(app).waitFor(lowered.position);
    expect(await auditStatus(user.token)).toBe(403);
    const raised = await orgs.changeRole(app.organizationId, user.userId, 'admin', SETUP);
    await liveProjector(app).waitFor(raised.position);
    expect(await auditStatus(user.token)).toBe(200);
  });

  it('answers 401 right after a token is revoked', async () => {
    const app = current();
    const identity = app.built.app.get(IdentityService);
    const { userId } = await addUser(app, { organizationId: app.organizationId, role: 'read' });
    const issued = await identity.issueToken(userId, 'second', SETUP);
    await liveProjector(app).waitFor(issued.position);
    const orgStatus = async () =>
      (await app.http('GET', `/v1/orgs/${app.organizationId}`, { token: issued.token })).status;
    expect(await orgStatus()).toBe(200);
    const revoked = await identity.revokeToken(userId, issued.tokenId, SETUP);
    await liveProjector(app).waitFor(revoked.position);
    expect(await orgStatus()).toBe(401);
  });
});
