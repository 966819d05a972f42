import { type ApiTarget, TARGETS } from '../support/api-target';
import { addUser } from '../support/app-harness';

/** A team owner's rights ride on the route guard's owner check, which crosses the internal transport. */
describe.each(TARGETS)("a team's owner manages it (%s)", (_, useTarget) => {
  const current = useTarget();

  it('renames it and manages its members as a reader of the organization, and cannot delete it', async () => {
    const target: ApiTarget = current();
    const org = ((await target.http('GET', '/v1/orgs')).body as { items: { id: string }[] }).items[0].id;
    const owner = await addUser(target.setup, { organizationId: org, role: 'read' });
    const other = await addUser(target.setup, { organizationId: org, role: 'read' });
    const teams = `/v1/orgs/${org}/teams`;
    const team = (await target.http('PUT', teams, { body: { title: 'Owned', members: [owner.userId] } }))
      .body as { id: string };
    const as = (token: string, body?: unknown) => ({ token, body });
    expect((await target.http('PATCH', `${teams}/${team.id}`, as(owner.token, { title: 'X' }))).status).toBe(
      403,
    );
    const promoted = await target.http('PUT', `${teams}/${team.id}/members/${owner.userId}`, {
      body: { role: 'owner' },
    });
    expect(promoted.status).toBe(204);
    const renamed = await target.http('PATCH', `${teams}/${team.id}`, as(owner.token, { title: 'Renamed' }));
    expect([renamed.status, (renamed.body as { title: string }).title]).toEqual([200, 'Renamed']);
    const added = await target.http(
      'PUT',
      `${teams}/${team.id}/members/${other.userId}`,
      as(owner.token, {}),
    );
    expect(added.status).toBe(204);
    expect((await target.http('DELETE', `${teams}/${team.id}`, as(owner.token))).status).toBe(403);
    expect((await target.http('PATCH', `${teams}/${team.id}`, as(other.token, { title: 'No' }))).status).toBe(
      403,
    );
    const read = await target.http('GET', `${teams}/${team.id}`);
    expect(read.body).toMatchObject({ title: 'Renamed', members: 2 });
  });
});
