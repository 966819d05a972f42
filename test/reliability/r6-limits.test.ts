import { randomBytes } from 'node:crypto';
import { IdentityService } from '@app/identity/write/identity.commands';
import { RATE_LIMIT_NAMESPACE } from '@app/platform/http/rate-limit';
import { Redis } from 'ioredis';
import {
  addUser,
  liveProjector,
  type Reply,
  SETUP,
  useTestApp,
  withTestApp,
  withTestApps,
} from '../support/app-harness';
import { RedisProcess } from '../support/redis-process';

const MAX = 5;
const WINDOW_MS = 2000;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function limitHeaders(reply: Reply) {
  return {
    limit: reply.headers.get('x-ratelimit-limit'),
    remaining: reply.headers.get('x-ratelimit-remaining'),
    reset: reply.headers.get('x-ratelimit-reset'),
    retryAfter: reply.headers.get('retry-after'),
  };
}

/** The reset is the end of the window in epoch seconds, as GitBook documents it. */
function expectResetWithinWindow(reply: Reply, windowMs: number): void {
  const reset = Number(reply.headers.get('x-ratelimit-reset'));
  const nowSeconds = Date.now() / 1000;
  expect(reset).toBeGreaterThanOrEqual(Math.floor(nowSeconds));
  expect(reset).toBeLessThanOrEqual(Math.ceil(nowSeconds + windowMs / 1000) + 1);
}

describe('R6 limits: per-token rate limit and body size', () => {
  const current = useTestApp({
    config: { rateLimitMax: MAX, rateLimitWindowMs: WINDOW_MS, bodyLimitBytes: 4096 },
  });

  it('counts down per token, answers 429 above the limit, and lets the token in again after the window', async () => {
    const app = current();
    const { token } = await addUser(app);
    const { token: other } = await addUser(app);
    const replies: Reply[] = [];
    for (let i = 0; i < MAX; i++) replies.push(await app.http('GET', '/v1/orgs', { token }));
    expect(replies.map((r) => r.status)).toEqual(Array(MAX).fill(200));
    expect(replies.map((r) => limitHeaders(r).limit)).toEqual(Array(MAX).fill(String(MAX)));
    expect(replies.map((r) => Number(limitHeaders(r).remaining))).toEqual([4, 3, 2, 1, 0]);
    for (const reply of replies) expectResetWithinWindow(reply, WINDOW_MS);
    expect(limitHeaders(replies[0]).retryAfter).toBeNull();

    const refused = await app.http('GET', '/v1/orgs', { token });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: { code: 429, message: expect.stringMatching(/rate limit/i) } });
    const headers = limitHeaders(refused);
    expect(headers).toMatchObject({ limit: String(MAX), remaining: '0' });
    expect(Number(headers.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(headers.retryAfter)).toBeLessThanOrEqual(Math.ceil(WINDOW_MS / 1000));
    expectResetWithinWindow(refused, WINDOW_MS);
    // Refused before authentication and routing: a write is refused the same way.
    expect(
      (await app.http('POST', `/v1/orgs/${app.organizationId}/spaces`, { token, body: {} })).status,
    ).toBe(429);

    const otherReply = await app.http('GET', '/v1/orgs', { token: other });
    expect(otherReply.status).toBe(200);
    expect(limitHeaders(otherReply).remaining).toBe(String(MAX - 1));
    // Operations stay reachable and unlimited.
    const health = await app.http('GET', '/health', { token });
    expect(health.status).toBe(200);
    expect(limitHeaders(health).limit).toBeNull();

    await sleep(Number(headers.retryAfter) * 1000 + 100);
    const again = await app.http('GET', '/v1/orgs', { token });
    expect(again.status).toBe(200);
    expect(limitHeaders(again).remaining).toBe(String(MAX - 1));
  });

  it('counts requests without a token against their address, apart from tokens', async () => {
    const app = current();
    const anonymous = await app.http('GET', '/v1/orgs', { token: null });
    expect(anonymous.status).toBe(401);
    expect(limitHeaders(anonymous).limit).toBe(String(MAX));
    const { token } = await addUser(app);
    const withToken = await app.http('GET', '/v1/orgs', { token });
    expect(limitHeaders(withToken).remaining).toBe(String(MAX - 1));
  });

  it('counts unknown and revoked tokens against the address: rotating tokens does not escape the limit', () =>
    withTestApp({ config: { rateLimitMax: MAX, rateLimitWindowMs: 10_000 } }, async (app) => {
      const { userId, token } = await addUser(app);
      const identity = app.built.app.get(IdentityService);
      const revoked = await identity.issueToken(userId, 'revoked', SETUP);
      await liveProjector(app).waitFor((await identity.revokeToken(userId, revoked.tokenId, SETUP)).position);

      const made = () => `gb_api_${randomBytes(24).toString('hex')}`;
      const rotated: Reply[] = [];
      for (const next of [made(), made(), revoked.token, made(), made()])
        rotated.push(await app.http('GET', '/v1/orgs', { token: next }));
      expect(rotated.map((r) => r.status)).toEqual(Array(MAX).fill(401));
      expect(rotated.map((r) => Number(limitHeaders(r).remaining))).toEqual([4, 3, 2, 1, 0]);
      // One more with yet another token, or none: the address's count is spent.
      expect((await app.http('GET', '/v1/orgs', { token: made() })).status).toBe(429);
      expect((await app.http('GET', '/v1/orgs', { token: revoked.token })).status).toBe(429);
      expect((await app.http('GET', '/v1/orgs', { token: null })).status).toBe(429);
      // A caller's token keeps its own count.
      const own = await app.http('GET', '/v1/orgs', { token });
      expect(own.status).toBe(200);
      expect(limitHeaders(own).remaining).toBe(String(MAX - 1));

      const metrics = await (await fetch(`${app.url}/metrics`)).text();
      expect(metrics).toMatch(/^http_unknown_token_requests_total 7$/m);
    }));

  it('refuses a body over the configured size with 413 in the envelope', async () => {
    const app = current();
    const { token } = await addUser(app, { organizationId: app.organizationId, role: 'admin' });
    const big = JSON.stringify({ title: 'z'.repeat(5000) });
    const tooLarge = await app.http('POST', `/v1/orgs/${app.organizationId}/spaces`, { token, raw: big });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body).toEqual({ error: { code: 413, message: expect.any(String) } });
    const fits = await app.http('POST', `/v1/orgs/${app.organizationId}/spaces`, {
      token,
      body: { title: 'Small enough' },
    });
    expect(fits.status).toBe(201);
  });

  it('RATE_LIMIT_MAX=0 turns the limit off', () =>
    withTestApp({ config: { rateLimitMax: 0 } }, async (unlimited) => {
      const reply = await unlimited.http('GET', '/v1/orgs');
      expect(reply.status).toBe(200);
      expect(limitHeaders(reply).limit).toBeNull();
    }));

  it('two instances on the same Redis share the count of a token, keyed by a hash of it', async () => {
    // A Redis of this test's own: with REDIS_URL the apps' purge workers would also take jobs from
    // other suites sharing the run's Redis.
    const server = await RedisProcess.start();
    const redisUrl = server.url;
    const bootstrapToken = `r6-${randomBytes(16).toString('hex')}`;
    const config = { rateLimitMax: 8, rateLimitWindowMs: 10_000, redisUrl, bootstrapToken };
    try {
      await withTestApps([{ config }, { config }], async ([a, b]) => {
        // Each start-up made one request with the token already.
        const seen: number[] = [];
        for (const instance of [a, b, a, b, a, b]) {
          const reply = await instance.http('GET', '/v1/orgs');
          expect(reply.status).toBe(200);
          seen.push(Number(reply.headers.get('x-ratelimit-remaining')));
        }
        expect(seen).toEqual([5, 4, 3, 2, 1, 0]);
        const refusedByA = await a.http('GET', '/v1/orgs');
        const refusedByB = await b.http('GET', '/v1/orgs');
        expect([refusedByA.status, refusedByB.status]).toEqual([429, 429]);
        expect(refusedByB.body).toEqual({ error: { code: 429, message: expect.any(String) } });

        const redis = new Redis(redisUrl);
        try {
          const keys = await redis.keys(`${RATE_LIMIT_NAMESPACE}*`);
          expect(keys.length).toBeGreaterThan(0);
          expect(keys.filter((key) => key.includes(bootstrapToken))).toEqual([]);
        } finally {
          redis.disconnect();
        }
      });
    } finally {
      await server.stop();
    }
  });
});
