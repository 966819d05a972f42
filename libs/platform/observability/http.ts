import type { FastifyInstance } from 'fastify';
import type { Observability } from './observability';
import { REQUEST_ID_HEADER, runInContext } from './request-context';

export interface ObserveHttpOptions {
  /**
   * Runs each request in its correlation context (`currentCorrelationId`) for code that has no request
   * at hand; it costs every promise of the process, so only the gateway asks for it.
   */
  requestContext?: boolean;
}

/**
 * Echoes every request's id (the correlation id, Fastify's `request.id`: see `correlationIdFrom`) in
 * `X-Request-Id` and, once the response is sent, writes one log line and one histogram sample labelled
 * with the route pattern (never the raw URL, whose ids would make a series per resource). Install on
 * the adapter's instance before `NestFactory.create`, so that with `requestContext` Nest middleware runs
 * in the context too.
 */
export function observeHttp(
  fastify: FastifyInstance,
  observability: Observability,
  options: ObserveHttpOptions = {},
): void {
  if (options.requestContext) {
    // Everything after this hook (Fastify keeps the context across body parsing) runs in the context.
    fastify.addHook('onRequest', (request, _reply, done) =>
      runInContext({ correlationId: request.id }, done),
    );
  }
  // onSend sees every response, including 401s, errors and 404s.
  fastify.addHook('onSend', (request, reply, payload, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done(null, payload);
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const status = reply.statusCode;
    const durationMs = Math.round(reply.elapsedTime * 10) / 10;
    observability.metrics.observeRequest(request.method, route, status, reply.elapsedTime / 1000);
    observability.logger.info(
      { method: request.method, route, status, durationMs, correlationId: request.id },
      'request completed',
    );
    done();
  });
}
