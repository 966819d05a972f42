import type { FastifyInstance, FastifyRequest } from 'fastify';
import { correlationIdFrom } from '../auth/auth.guard';
import type { Observability } from './observability';
import { type RequestContext, runInContext } from './request-context';

export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * Gives every HTTP request a correlation context, echoes its id in `X-Request-Id` and, once the
 * response is sent, writes one log line and one histogram sample labelled with the route pattern
 * (never the raw URL, whose ids would make a series per resource). Install on the adapter's instance
 * before `NestFactory.create`, so that Nest middleware runs in the context too.
 */
export function observeHttp(fastify: FastifyInstance, observability: Observability): void {
  const contexts = new WeakMap<FastifyRequest, RequestContext>();
  const contextOf = (request: FastifyRequest): RequestContext => {
    let context = contexts.get(request);
    if (!context) {
      context = { correlationId: correlationIdFrom(request.headers) };
      contexts.set(request, context);
    }
    return context;
  };

  // Everything after this hook (Fastify keeps the context across body parsing) runs in the context.
  fastify.addHook('onRequest', (request, _reply, done) => runInContext(contextOf(request), done));
  // onSend sees every response, including 401s, errors and 404s answered before the hook above.
  fastify.addHook('onSend', (request, reply, payload, done) => {
    reply.header(REQUEST_ID_HEADER, contextOf(request).correlationId);
    done(null, payload);
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const status = reply.statusCode;
    const durationMs = Math.round(reply.elapsedTime * 10) / 10;
    observability.metrics.observeRequest(request.method, route, status, reply.elapsedTime / 1000);
    observability.logger.info(
      { method: request.method, route, status, durationMs, correlationId: contextOf(request).correlationId },
      'request completed',
    );
    done();
  });
}
