import { AsyncLocalStorage } from 'node:async_hooks';

/** What every log line written while serving one request (or running one job) should carry. */
export interface RequestContext {
  correlationId: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** Runs `fn` (and everything it starts) inside `context`. */
export function runInContext<T>(context: RequestContext, fn: () => T): T {
  return storage.run(context, fn);
}

export function currentContext(): RequestContext | undefined {
  return storage.getStore();
}

/** The correlation id of the request or job being served, if any. */
export function currentCorrelationId(): string | undefined {
  return storage.getStore()?.correlationId;
}
