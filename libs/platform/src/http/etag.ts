import {
  BadRequestException,
  type CallHandler,
  createParamDecorator,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
} from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { map, type Observable } from 'rxjs';

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

@Injectable()
export class EtagInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      map((body) => {
        const revision = etagOf(body);
        if (revision !== undefined)
          context.switchToHttp().getResponse<FastifyReply>().header('ETag', `"${revision}"`);
        return body;
      }),
    );
  }
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
