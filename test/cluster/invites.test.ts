import { type ApiTarget, TARGETS } from '../support/api-target';
import { addUser } from '../support/app-harness';

/**
 * Joining with an invite rides on the guard letting a non-member through (`@OpenToNonMembers`), which
 * crosses the internal transport, and on the link read from the log by the command replica.
 */
describe.each(TARGETS)('joining an organization with an invite link (%s)', (_, useTarget) => {
  const current = useTarget();

  it("admits a user with the link's id at once, and refuses it once the link is deleted", async () => {
    const target: ApiTarget = current();
    const org = ((await target.http('GET', '/v1/orgs')).body as { items: { id: string }[] }).items[0].id;
    const links = `/v1/orgs/${org}/link-invites`;
    const link = (await target.http('POST', links, { body: { role: 'edit' } })).body as { id: string };
    const first = await addUser(target.setup);
    const second = await addUser(target.setup);
    expect((await target.http('GET', `/v1/orgs/${org}`, { token: first.token })).status).toBe(404);
    const joined = await target.http('POST', `/v1/orgs/${org}/invites/${link.id}`, { token: first.token });
    expect([joined.status, joined.body]).toEqual([200, {}]);
    const seen = await target.http('GET', `/v1/orgs/${org}`, { token: first.token });
    expect([seen.status, (seen.body as { permissions: { admin: boolean } }).permissions.admin]).toEqual([
      200,
      false,
    ]);
    expect((await target.http('GET', `${links}/${link.id}`)).body).toEqual({
      object: 'invite',
      id: link.id,
      role: 'edit',
      redundant: true,
    });
    expect((await target.http('DELETE', `${links}/${link.id}`)).status).toBe(205);
    const refused = await target.http('POST', `/v1/orgs/${org}/invites/${link.id}`, { token: second.token });
    expect(refused.status).toBe(404);
    expect((await target.http('GET', `/v1/orgs/${org}`, { token: second.token })).status).toBe(404);
  });
});
