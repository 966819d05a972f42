import { BadRequestException, createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';

/**
 * Optimistic concurrency over HTTP: a resource's ETag is its stream revision, and `If-Match` on a
 * write becomes the expected revision (a mismatch is 412). The revision travels with the presented
 * body as a hidden property, so it survives the internal transport too.
 */
const ETAG = Symbol('etag');

export function withEtag<T extends object>(body: T, revision: number | undefined): T {
  if (revision !== undefined) Object.defineProperty(body, ETAG, { value: revision, enumerable: false });
  return body;
}

export function etagOf(body: unknown): number | undefined {
  return body && typeof body === 'object' ? (body as { [ETAG]?: number })[ETAG] : undefined;
}

/**
 * Sets `ETag` from the revision a presented body carries, as Fastify serializes it. A hook rather than a
 * Nest interceptor: an interceptor wraps every route's handler in an observable chain and an async
 * resource, a measurable share of a request's cost, for a header only some answers have.
 */
export function sendEtags(fastify: Pick<FastifyInstance, 'addHook'>): void {
  fastify.addHook('preSerialization', (_request, reply, payload, done) => {
    const revision = etagOf(payload);
    if (revision !== undefined) reply.header('ETag', `"${revision}"`);
    done(null, payload);
  });
}

/** `If-Match: "3"` (or `W/"3"`) as the expected revision 3; absent or `*` means no precondition. */
export const IfMatch = createParamDecorator(
  (_data: unknown, context: ExecutionContext): number | undefined => {
    const header = context.switchToHttp().getRequest<{ headers: Record<string, unknown> }>().headers[
      'if-match'
    ];
    if (header === undefined || header === '*') return undefined;
    const match = typeof header === 'string' ? /^(?:W\/)?"?(\d{1,15})"?$/.exec(header.trim()) : null;
    if (!match) throw new BadRequestException('If-Match: must be an ETag of this API, like "3"');
    return Number(match[1]);
  },
);
