import { createServer, type IncomingMessage, type RequestListener } from 'node:http';
import { Access } from '@app/platform/auth/access';
import {
  type Config,
  DEFAULT_BODY_LIMIT_BYTES,
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_REQUEST_TIMEOUT_MS,
} from '@app/platform/config/config';
import { batchResponseWrites } from '@app/platform/http/batched-writes';
import { errorBody, toHttpError } from '@app/platform/http/errors';
import { sendEtags } from '@app/platform/http/etag';
import { utf8JsonParser } from '@app/platform/http/json-body';
import { installRateLimit } from '@app/platform/http/rate-limit';
import { answerClientError, refuseOtherBodies } from '@app/platform/http/request-limits';
import { createValidationPipe } from '@app/platform/http/validation';
import { type ObserveHttpOptions, observeHttp } from '@app/platform/observability/http';
import { createObservability, type Observability } from '@app/platform/observability/observability';
import { ObservabilityModule } from '@app/platform/observability/observability.module';
import { correlationIdFrom } from '@app/platform/observability/request-context';
import { type DynamicModule, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';

/** The default; `config.bodyLimitBytes` (BODY_LIMIT_BYTES) is what applies. */
export const BODY_LIMIT_BYTES = DEFAULT_BODY_LIMIT_BYTES;

/** Routes outside the /v1 API: operations and the internal transport. */
export const UNPREFIXED_ROUTES = ['health', 'ready', 'metrics', 'internal/rpc'];

@Module({})
class HttpApp {}

/**
 * The HTTP setup every app shares: Fastify, body limit, /v1 prefix, validation, shutdown hooks,
 * observability (JSON logs, request correlation, /metrics) and batched answers to reads. Pass the
 * process's Observability when the storage was wrapped with it, so that its metrics land on the same
 * registry.
 */
export async function createHttpApp(
  module: DynamicModule,
  config: Config,
  observability: Observability = createObservability({ level: config.logLevel }),
  observe: ObserveHttpOptions = {},
): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    bodyLimit: config.bodyLimitBytes,
    // The server Node checks requests on: one not wholly sent in time (trickled or stalled) is closed
    // with a 408, looked for a few times per timeout; past the cap, new connections are refused.
    serverFactory: (handler: RequestListener) => {
      const requestTimeout = config.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
      const server = createServer(
        {
          requestTimeout,
          connectionsCheckingInterval: Math.min(30_000, Math.max(250, Math.floor(requestTimeout / 4))),
        },
        handler,
      );
      const maxConnections = config.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
      if (maxConnections > 0) server.maxConnections = maxConnections;
      return server;
    },
    // Only proxies named by TRUST_PROXY say who the caller is (X-Forwarded-For).
    trustProxy: trustedProxies(config.trustProxy),
    clientErrorHandler: answerClientError,
    // The request's id is its correlation id: the caller's X-Request-Id when well-formed.
    genReqId: (request: IncomingMessage) => correlationIdFrom(request.headers),
    // The router refuses a malformed URL (400) or an over-long path parameter (414) before Nest sees the
    // request, so its exception filter never runs: the envelope is applied here.
    frameworkErrors: (error: FastifyError, _request: FastifyRequest, reply: FastifyReply) => {
      const { status, message } = toHttpError(error);
      reply.status(status).send(errorBody(status, message));
    },
  });
  observeHttp(adapter.getInstance(), observability, observe);
  refuseOtherBodies(adapter.getInstance());
  // Set once the application exists; no request is served before.
  let access: Access | undefined;
  // After observeHttp, so that a 429 is logged and carries X-Request-Id like any answer.
  await installRateLimit(adapter.getInstance(), {
    max: config.rateLimitMax,
    windowMs: config.rateLimitWindowMs,
    redisUrl: config.redisUrl,
    // Known tokens are in memory after their first request (`Access`), so this costs the guard nothing.
    knownToken: async (hash) => !access || (await access.authenticateHash(hash)) !== null,
    onUnknownToken: () => observability.metrics.unknownToken(),
  });
  sendEtags(adapter.getInstance());
  batchResponseWrites(adapter.getInstance(), (error) =>
    observability.logger.error({ err: error }, 'writing a held answer failed'),
  );
  const app = await NestFactory.create<NestFastifyApplication>(
    { module: HttpApp, imports: [module, ObservabilityModule.forRoot(observability)] },
    adapter,
    { logger: observability.nestLogger, abortOnError: false },
  );
  access = authenticator(app);
  app.useBodyParser(
    'application/json',
    { bodyLimit: config.bodyLimitBytes },
    utf8JsonParser(adapter.getInstance()),
  );
  app.setGlobalPrefix('v1', { exclude: UNPREFIXED_ROUTES });
  app.useGlobalPipes(createValidationPipe());
  app.enableShutdownHooks();
  return app;
}

/** TRUST_PROXY as Fastify takes it: addresses and ranges as they are, a hop count as the hops it trusts. */
function trustedProxies(setting: Config['trustProxy']) {
  if (setting === undefined) return false;
  if (typeof setting === 'number') return (_address: string, hop: number) => hop < setting;
  return setting;
}

/** The app's token lookup; none in an app without authenticated routes. */
function authenticator(app: NestFastifyApplication): Access | undefined {
  try {
    return app.get(Access, { strict: false });
  } catch {
    return undefined;
  }
}
