import fastifyRateLimit from '@fastify/rate-limit';
import { Logger } from '@nestjs/common';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { bearerHash } from '../auth/bearer';
import { errorBody } from './errors';

export interface RateLimitOptions {
  /** Requests per caller and window; 0 installs nothing. */
  max: number;
  windowMs: number;
  /** Counts in Redis, shared by every process using it; in this process's memory when absent. */
  redisUrl?: string;
  /**
   * Whether a token (by `bearerHash`) belongs to a caller; one that does not is counted against the
   * request's address. Every token counts as its own caller when absent (an app without tokens).
   */
  knownToken?: (hash: string) => Promise<boolean>;
  /** Told of each request counted against its address because its token is unknown or revoked. */
  onUnknownToken?: () => void;
}

/** Redis keys are `rate-limit:<caller key>`, expiring with their window. */
export const RATE_LIMIT_NAMESPACE = 'rate-limit:';
/** Callers tracked at once by the in-memory store (least recently seen dropped first). */
const LOCAL_CALLERS = 50_000;
/** A stalled Redis must not stall the API: the request goes through uncounted instead. */
const REDIS_COMMAND_TIMEOUT_MS = 1000;
const REDIS_READY_WAIT_MS = 2000;

/**
 * Who a request counts against: its bearer token when the token is a caller's (the token itself never
 * reaches the store or a log), else its address, so that a client rotating made-up or revoked tokens
 * shares one count rather than getting a fresh one with each. The key is the second half of the
 * token's hash (`bearerHash`, computed once per request): 128 bits, never the whole hash the views
 * look tokens up by. A lookup that fails counts against the address too.
 */
export async function rateLimitKey(
  request: FastifyRequest,
  options: Pick<RateLimitOptions, 'knownToken' | 'onUnknownToken'> = {},
): Promise<string> {
  const hash = bearerHash(request.headers);
  if (hash === null) return `ip:${request.ip}`;
  const known = options.knownToken ? await options.knownToken(hash).catch(() => false) : true;
  if (known) return `t:${hash.slice(32)}`;
  options.onUnknownToken?.();
  return `ip:${request.ip}`;
}

/** The GitBook API: `/v1` and below; operations, the internal transport and `/docs` are not limited. */
export function isLimitedPath(url: string): boolean {
  return url.startsWith('/v1') && (url.length === 3 || url[3] === '/' || url[3] === '?');
}

/**
 * Per-caller fixed-window rate limit on the API routes, with the headers GitBook documents:
 * `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` (the end of the window in UTC
 * epoch seconds) on every answer, and above the limit a 429 in the error envelope with `Retry-After`
 * (seconds). @fastify/rate-limit keeps the counts (in memory, or atomically in Redis); the hook here
 * writes the answer, because the plugin's own reports the reset as seconds from now and its 429 would
 * go through the exception filter, which sets its own Retry-After.
 * When the Redis store fails, requests go through uncounted: an outage of the limiter does not take
 * the API down. Install on the adapter's instance before the application registers its routes.
 */
export async function installRateLimit(fastify: FastifyInstance, options: RateLimitOptions): Promise<void> {
  if (options.max <= 0) return;
  const logger = new Logger('rate-limit');
  const redis = options.redisUrl ? await connectRedis(fastify, options.redisUrl, logger) : undefined;
  fastify.register(fastifyRateLimit, {
    global: false,
    max: options.max,
    timeWindow: options.windowMs,
    keyGenerator: (request: FastifyRequest) => rateLimitKey(request, options),
    cache: LOCAL_CALLERS,
    redis,
    nameSpace: RATE_LIMIT_NAMESPACE,
  });
  let limit: ReturnType<FastifyInstance['createRateLimit']> | undefined;
  let failing = false;
  fastify.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!isLimitedPath(request.url)) return;
    // The plugin's decorator exists once it has loaded, which is before the first request.
    limit ??= fastify.createRateLimit();
    let result: Awaited<ReturnType<typeof limit>>;
    try {
      result = await limit(request);
      failing = false;
    } catch (error) {
      if (!failing) logger.warn(`rate limit not applied: ${(error as Error).message}`);
      failing = true;
      return;
    }
    if (result.isAllowed) return;
    reply.header('x-ratelimit-limit', result.max);
    reply.header('x-ratelimit-remaining', result.remaining);
    reply.header('x-ratelimit-reset', Math.ceil((Date.now() + result.ttl) / 1000));
    if (!result.isExceeded) return;
    const seconds = Math.max(1, result.ttlInSeconds);
    reply.header('retry-after', seconds);
    reply.code(429).send(errorBody(429, `API rate limit exceeded. Please try again in ${seconds} seconds`));
    return reply;
  });
}

/**
 * No offline queue: while Redis is away a count fails at once (the request goes through) instead of
 * waiting for the reconnection. Start-up waits briefly for the connection so that the first requests
 * are counted too.
 */
async function connectRedis(fastify: FastifyInstance, url: string, logger: Logger): Promise<Redis> {
  // Loaded only here: a server without Redis does not spend start-up time (~85 ms) loading the client.
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
  });
  let reported = false;
  redis.on('error', (error: Error) => {
    if (!reported) logger.warn(`rate limit store: ${error.message}`);
    reported = true;
  });
  redis.on('ready', () => {
    reported = false;
  });
  fastify.addHook('onReady', async () => {
    if (redis.status === 'ready') return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        redis.off('ready', done);
        resolve();
      };
      const timer = setTimeout(done, REDIS_READY_WAIT_MS);
      redis.on('ready', done);
    });
  });
  fastify.addHook('onClose', async () => {
    await redis.quit().catch(() => redis.disconnect());
  });
  return redis;
}
