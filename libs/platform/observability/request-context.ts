import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/** What every log line written while serving one request should carry. */
export interface RequestContext {
  correlationId: string;
}

/** The header carrying a request's correlation id: from a caller, back to it, and between services. */
export const REQUEST_ID_HEADER = 'x-request-id';

const CORRELATION = /^[A-Za-z0-9._:-]{1,128}$/;

/** A well-formed `X-Request-Id` from the caller, or a new id: the request's id (Fastify's `request.id`). */
export function correlationIdFrom(headers: Record<string, string | string[] | undefined>): string {
  const given = headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && CORRELATION.test(given) ? given : randomUUID();
}

/*
 * Carrying a context across awaits costs every promise of the process while any AsyncLocalStorage is in
 * use (Node 20 installs promise hooks): 7–14% of a standalone server's write throughput (BENCHMARKS.md). So
 * code that has the request or the job at hand passes its id explicitly, and only the gateway, whose
 * handlers call other services from code that has no request, runs requests in this context.
 */
const storage = new AsyncLocalStorage<RequestContext>();

/** Runs `fn` (and everything it starts) inside `context`. */
export function runInContext<T>(context: RequestContext, fn: () => T): T {
  return storage.run(context, fn);
}

export function currentContext(): RequestContext | undefined {
  return storage.getStore();
}

/** The correlation id of the request being served, inside `runInContext`. */
export function currentCorrelationId(): string | undefined {
  return storage.getStore()?.correlationId;
}
