import { hashSecret } from '@app/platform/domain/ids';
import { RpcClient } from '@app/platform/rpc/rpc.client';
import type { HttpException } from '@nestjs/common';
import { Cluster, clusterEnv, INTERNAL_TOKEN, type RunningService } from '../support/cluster-harness';
import { envelopeProblem, namesField, type RawReply } from '../support/http-checks';
import { removeDir, tempDir } from '../support/temp-dir';

/** A caller as the gateway sends it: exactly these three strings. */
const VIEWER = { userId: 'u1', tokenId: 't1', correlationId: 'internal-rpc-test' };
const SPACE = 'abcdefghij0123456789';

/**
 * The internal transport of a command and a query service, called directly as only the gateway should:
 * without the shared token nothing is answered (401), only the methods a role exposes with `@Remote` are
 * callable (404 otherwise), and their arguments must have the declared shapes (400 naming the argument).
 */
describe('the internal transport (/internal/rpc) of command and query services', () => {
  let dataDir: string;
  let cluster: Cluster;
  let command: RunningService;
  let query: RunningService;

  beforeAll(async () => {
    dataDir = tempDir('internal-rpc-');
    cluster = new Cluster(clusterEnv(dataDir, { LOG_LEVEL: 'error' }));
    [command, query] = await Promise.all([cluster.start('command'), cluster.start('query')]);
  }, 60_000);

  afterAll(async () => {
    await cluster?.stopAll();
    if (dataDir) removeDir(dataDir);
  });

  async function rpc(
    service: RunningService,
    body: unknown,
    token: string | null = INTERNAL_TOKEN,
  ): Promise<RawReply & { refused: boolean }> {
    const response = await fetch(`${service.url}/internal/rpc`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token === null ? {} : { 'x-internal-token': token }),
      },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    const refused = response.headers.get('x-rpc-refused') === '1';
    return { status: response.status, text, json: text ? JSON.parse(text) : undefined, refused };
  }

  /**
   * Why the reply is not the transport's refusal (marked so: the gateway answers those 502) with `status`
   * in the error envelope and a message naming `name`, if it is not.
   */
  function refusal(
    reply: RawReply & { refused: boolean },
    status: number,
    name?: string,
  ): string | undefined {
    if (reply.status !== status) return `expected ${status}, got ${reply.status} ${reply.text}`;
    if (!reply.refused) return 'not marked as a refusal of the transport (x-rpc-refused)';
    const envelope = envelopeProblem(reply);
    if (envelope) return envelope;
    const message = (reply.json as { error: { message: string } }).error.message;
    return name === undefined || namesField(message, name) ? undefined : `does not name ${name}: ${message}`;
  }

  const valid = { service: 'ConsistencyProbe', method: 'reached', args: [] };

  it('401 without the internal token, or with a wrong one of the same or another length', async () => {
    const same = `${INTERNAL_TOKEN.slice(0, -1)}${INTERNAL_TOKEN.endsWith('x') ? 'y' : 'x'}`;
    const tokens: [string, string | null][] = [
      ['missing', null],
      ['empty', ''],
      ['same length, last character differs', same],
      ['shorter: a prefix of it', INTERNAL_TOKEN.slice(0, 10)],
      ['longer: it and more', `${INTERNAL_TOKEN}0`],
      ['another secret', 'x'.repeat(64)],
    ];
    const problems: string[] = [];
    for (const service of [command, query]) {
      for (const [label, token] of tokens) {
        // A method that is not callable either: the token is checked before anything is looked up.
        for (const body of [valid, { service: 'SpaceService', method: 'run', args: [] }]) {
          const problem = refusal(await rpc(service, body, token), 401, 'X-Internal-Token');
          if (problem) problems.push(`${service.name}, token ${label}, ${body.method}: ${problem}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('404 for services and methods not on the allowlist of the role, existing or not', async () => {
    const cases: [RunningService, string, string][] = [
      // Methods of exposed services that are not marked @Remote: private helpers and unlisted ones.
      [command, 'SpaceService', 'run'],
      [command, 'SpaceService', 'space'],
      [command, 'CollectionService', 'contents'],
      [query, 'Access', 'roleIn'],
      [query, 'Access', 'require'],
      [query, 'Access', 'knownIdentity'],
      // What every object has, and names that are never methods.
      ...['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', '_run', '', 'prototype'].map(
        (method): [RunningService, string, string] => [command, 'SpaceService', method],
      ),
      [query, 'Access', 'constructor'],
      // Services this role does not expose, though the process may hold them.
      [command, 'Access', 'authorize'],
      [command, 'ConsistencyProbe', 'reached'],
      [command, 'SpaceQueries', 'get'],
      [query, 'SpaceService', 'create'],
      [command, 'SpaceCommandHandler', 'execute'],
      [command, 'CommandBus', 'execute'],
      [query, 'ReadStore', 'get'],
      // Names of no service.
      [command, 'Nothing', 'reached'],
      [command, '__proto__', 'toString'],
      [command, 'constructor', 'name'],
      [query, 'Object', 'keys'],
    ];
    const problems: string[] = [];
    for (const [service, name, method] of cases) {
      const problem = refusal(await rpc(service, { service: name, method, args: [] }), 404);
      if (problem) problems.push(`${service.name} ${name}.${method}: ${problem}`);
    }
    expect(problems).toEqual([]);
  });

  it('400 naming the argument when the arguments do not have the declared shapes', async () => {
    const cases: [RunningService, unknown, string][] = [
      [command, { service: 'SpaceService', method: 'restore', args: ['not an id!', VIEWER] }, 'spaceId'],
      [command, { service: 'SpaceService', method: 'restore', args: [42, VIEWER] }, 'spaceId'],
      [command, { service: 'SpaceService', method: 'restore', args: [SPACE] }, 'viewer'],
      [command, { service: 'SpaceService', method: 'restore', args: [SPACE, 'me'] }, 'viewer'],
      [
        command,
        { service: 'SpaceService', method: 'restore', args: [SPACE, { ...VIEWER, userId: 7 }] },
        'viewer',
      ],
      [
        command,
        { service: 'SpaceService', method: 'restore', args: [SPACE, { ...VIEWER, admin: true }] },
        'viewer',
      ],
      [command, { service: 'SpaceService', method: 'restore', args: [SPACE, VIEWER, 'extra'] }, 'viewer'],
      [command, { service: 'SpaceService', method: 'create', args: [SPACE, [], VIEWER] }, 'body'],
      [command, { service: 'SpaceService', method: 'create', args: [SPACE, 'title', VIEWER] }, 'body'],
      [command, { service: 'SpaceService', method: 'update', args: [SPACE, {}, VIEWER, '3'] }, 'ifMatch'],
      [command, { service: 'SpaceService', method: 'update', args: [SPACE, {}, VIEWER, -1] }, 'ifMatch'],
      [command, { service: 'SpaceService', method: 'restore', args: { 0: SPACE, 1: VIEWER } }, 'args'],
      [command, { service: 'SpaceService', method: 'restore' }, 'args'],
      [query, { service: 'Access', method: 'authenticateHash', args: ['not a digest'] }, 'hash'],
      [query, { service: 'Access', method: 'authenticateHash', args: [] }, 'hash'],
      [
        query,
        { service: 'Access', method: 'authorize', args: [{ kind: 'resource' }, SPACE, VIEWER, 'read'] },
        'scope',
      ],
      [
        query,
        { service: 'Access', method: 'authorize', args: [{ kind: 'organization' }, SPACE, VIEWER, 'owner'] },
        'required',
      ],
      [query, { service: 'AuditQueries', method: 'get', args: [SPACE, 'not-a-uuid'] }, 'auditEventId'],
      [query, { ...valid, minPosition: -1 }, 'minPosition'],
      [query, { ...valid, minPosition: '5' }, 'minPosition'],
      [query, { service: 42, method: 'reached', args: [] }, 'service'],
      [query, { service: 'ConsistencyProbe', method: ['reached'], args: [] }, 'method'],
      [query, { ...valid, extra: 1 }, 'extra'],
      [query, [valid], 'body'],
    ];
    const problems: string[] = [];
    for (const [service, body, name] of cases) {
      const problem = refusal(await rpc(service, body), 400, name);
      if (problem) problems.push(`${service.name} ${JSON.stringify(body)}: ${problem}`);
    }
    expect(problems).toEqual([]);
  });

  it('runs a call on the allowlist, and answers domain errors in the envelope', async () => {
    expect(await rpc(query, valid)).toMatchObject({ status: 200, json: { result: true } });
    const actions = await rpc(query, { service: 'AuditQueries', method: 'actions', args: [] });
    expect(actions.status).toBe(200);
    expect((actions.json as { result: { items: unknown[] } }).result.items.length).toBeGreaterThan(0);
    // An unknown token stands for nobody.
    const nobody = { service: 'Access', method: 'authenticateHash', args: [hashSecret('nobody')] };
    expect(await rpc(query, nobody)).toMatchObject({ status: 200, json: { result: null } });
    // The command runs and the domain refuses it: its 404, in the envelope the gateway passes on. A trailing
    // optional argument may come as null (JSON's undefined in an array).
    for (const args of [
      [SPACE, VIEWER],
      [SPACE, VIEWER, null],
    ]) {
      const missing = await rpc(command, { service: 'SpaceService', method: 'delete', args });
      expect(missing).toMatchObject({ status: 404, refused: false });
      expect(missing.json).toEqual({ error: { code: 404, message: 'Space not found' } });
    }
  });

  it("a gateway whose call is refused answers 502, never the replica's 401 or 404, and passes domain errors on", async () => {
    const targets = { command: [command.url], query: [query.url] };
    const wrong = new RpcClient(targets, 'not-the-internal-token');
    const right = new RpcClient(targets, INTERNAL_TOKEN);
    try {
      const status = (call: Promise<unknown>) =>
        call.then(
          () => 200,
          (error: HttpException) => error.getStatus(),
        );
      expect(await status(wrong.call('query', valid))).toBe(502);
      expect(await status(right.call('query', { ...valid, method: 'gone' }))).toBe(502);
      expect(
        await status(right.call('command', { service: 'SpaceService', method: 'restore', args: [SPACE] })),
      ).toBe(502);
      expect(
        await status(
          right.call('command', { service: 'SpaceService', method: 'delete', args: [SPACE, VIEWER] }),
        ),
      ).toBe(404);
    } finally {
      await Promise.all([wrong.close(), right.close()]);
    }
  });
});
