import { join } from 'node:path';
import { SqliteEventStore } from '@app/platform/eventstore/sqlite-event-store';
import { MAX_ATTEMPTS } from '@app/platform/write/command-runner';
import {
  Cluster,
  clusterEnv,
  type GatewayReply,
  gatewayRequest,
  type RunningService,
} from '../support/cluster-harness';
import { retryUntil } from '../support/process-harness';
import { removeDir, tempDir } from '../support/temp-dir';

type Reply = GatewayReply<{ id?: string; title?: string }>;

/** The `write_conflicts_total` counts of one replica, by outcome. */
async function conflictCounts(service: RunningService): Promise<Record<string, number>> {
  const text = await (await fetch(`${service.url}/metrics`)).text();
  const counts: Record<string, number> = {};
  for (const [, outcome, value] of text.matchAll(/^write_conflicts_total\{outcome="(\w+)"\} (\d+)$/gm))
    counts[outcome] = Number(value);
  return counts;
}

/**
 * Two command replicas on one embedded log, behind a gateway that hands them commands round-robin: the
 * same space updated through both at once meets real append conflicts between processes, which the
 * in-process tests (one queue per stream) cannot produce.
 */
describe('write conflicts between command replicas', () => {
  let dataDir: string;
  let cluster: Cluster;
  let gateway: RunningService;
  let commands: RunningService[];
  let org: string;

  const http = (method: string, path: string, body?: unknown, ifMatch?: string) =>
    gatewayRequest<Reply['body']>(gateway, method, path, body, ifMatch);

  /** The titles the log holds for a space, in order: what every answer is checked against. */
  const loggedTitles = async (spaceId: string): Promise<string[]> => {
    const events = new SqliteEventStore({ path: join(dataDir, 'events.sqlite') });
    try {
      return (await events.readStream(`space-${spaceId}`))
        .filter((e) => e.type === 'SpaceUpdated')
        .map((e) => (e.data as { changes: { title?: string } }).changes.title)
        .filter((title): title is string => title !== undefined);
    } finally {
      await events.close();
    }
  };

  const createSpace = async (title: string): Promise<string> => {
    const created = await http('POST', `/v1/orgs/${org}/spaces`, { title });
    expect(created.status).toBe(201);
    return created.body.id as string;
  };

  beforeAll(async () => {
    dataDir = tempDir('conflicts-');
    cluster = new Cluster(clusterEnv(dataDir));
    commands = await Promise.all([cluster.start('command'), cluster.start('command')]);
    const [query] = await Promise.all([cluster.start('query'), cluster.start('projector')]);
    gateway = await cluster.start('gateway', {
      COMMAND_URLS: commands.map((s) => s.url).join(','),
      QUERY_URLS: query.url,
    });
    org = ((await http('GET', '/v1/orgs')).body as unknown as { items: { id: string }[] }).items[0].id;
  }, 60_000);

  afterAll(async () => {
    await cluster?.stopAll();
    if (dataDir) removeDir(dataDir);
  });

  it('50 concurrent updates of one space through both replicas: conflicts retried, none lost, 409 only after the retries', async () => {
    const id = await createSpace('Contended');
    const replies = await Promise.all(
      Array.from({ length: 50 }, (_, i) => http('PATCH', `/v1/spaces/${id}`, { title: `t${i}` })),
    );
    expect(replies.filter((r) => r.status !== 200 && r.status !== 409)).toEqual([]);
    // An answer shows the space as read after its write, maybe with later writes: the title sent is what it wrote.
    const ok = replies.flatMap((r, i) => (r.status === 200 ? [`t${i}`] : []));
    const refused = replies.filter((r) => r.status === 409);

    // Exactly the acknowledged updates are in the log: none lost, none of the refused half-applied.
    const logged = await loggedTitles(id);
    expect([...logged].sort()).toEqual([...ok].sort());

    const counts = await Promise.all(commands.map(conflictCounts));
    const total = (outcome: string) => counts.reduce((sum, c) => sum + (c[outcome] ?? 0), 0);
    // The replicas did overtake each other, and resolved it by reading the stream again.
    expect(total('refolded') + total('retried')).toBeGreaterThan(0);
    // A 409 is the last of MAX_ATTEMPTS refused appends, each lost to a write of the other replica
    // that landed: only updates that lost every retry are refused, and most land.
    expect(total('refused')).toBe(refused.length);
    expect(total('retried')).toBeGreaterThanOrEqual(total('refused') * (MAX_ATTEMPTS - 1));
    expect(refused.length * MAX_ATTEMPTS).toBeLessThanOrEqual(ok.length);
    expect(ok.length).toBeGreaterThanOrEqual(25);

    // The views end on the last update in the log.
    await retryUntil(async () => {
      expect((await http('GET', `/v1/spaces/${id}`)).body.title).toBe(logged.at(-1));
    });
  }, 60_000);

  it('a pinned If-Match is answered 412 once the other replica moved the space, and appends nothing', async () => {
    const id = await createSpace('Pinned');
    // Each replica folds the space once, so the next write of either decides on state it holds.
    const first = await http('PATCH', `/v1/spaces/${id}`, { title: 'One' });
    const second = await http('PATCH', `/v1/spaces/${id}`, { title: 'Two' });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.etag).toBe('"2"');

    // Whichever replica takes these, revision 1 is stale: the space moved to 2 through the other one.
    for (let i = 0; i < 4; i++) {
      const stale = await http('PATCH', `/v1/spaces/${id}`, { title: `Stale ${i}` }, '"1"');
      expect(stale.status).toBe(412);
      expect(stale.body).toEqual({ error: { code: 412, message: expect.any(String) } });
    }
    expect(await loggedTitles(id)).toEqual(['One', 'Two']);
    const fresh = await http('PATCH', `/v1/spaces/${id}`, { title: 'Three' }, '"2"');
    expect(fresh.status).toBe(200);
    expect(await loggedTitles(id)).toEqual(['One', 'Two', 'Three']);
  });
});
