import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Access, Identity } from '../auth/access';
import { bearerHash } from '../auth/bearer';
import { cacheMayAnswer, type ViewChanges } from '../projector/view-changes';
import { isLimitedPath } from './rate-limit';

/** Answers kept at most, and the largest body kept: a bound on memory, not a working-set estimate. */
const MAX_ENTRIES = 20_000;
const MAX_BODY_BYTES = 256 * 1024;
const MAX_TOTAL_BYTES = 64 * 1024 * 1024;

interface Entry {
  body: string;
  contentType: string;
  etag: string | undefined;
}

/** Set on a request that missed: where to keep its answer, and the cache generation it started in. */
interface Ticket {
  key: string;
  generation: number;
}

const TICKET = Symbol('response-cache-ticket');
type Ticketed = FastifyRequest & { [TICKET]?: Ticket };

/**
 * Successful `GET` answers of the API, kept per caller and URL until the views change.
 *
 * Every answer is a function of the read models, the caller and the URL: the views change only when
 * the projector of this process commits, and it announces each commit before any write waits on it,
 * so dropping everything on each announcement means no answer is served after the change it misses.
 * A request that raced with an announcement is not kept (its generation is compared when it ends).
 * The token is still checked on every request (a revoked one is refused by the application, which is
 * what a miss runs), rate limits, logs and metrics apply as before; only 200s are kept, and only
 * while the views' changes are announced (`ViewChanges.active`). An answer that depends on more (the
 * clock: a signed link that expires) says `Cache-Control: no-store` and is not kept.
 */
export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  private generation = 0;
  private bytes = 0;

  constructor(
    private readonly access: Pick<Access, 'authenticateHash' | 'knownIdentity'>,
    private readonly changes: ViewChanges,
  ) {
    changes.onChange(() => this.clear());
  }

  /** Serves hits from `preHandler` (after rate limiting and body parsing) and keeps 200s in `onSend`. */
  install(fastify: FastifyInstance): void {
    // Callback style, and synchronous while the caller's token is in Access's cache: a hit then
    // allocates no promise.
    fastify.addHook('preHandler', (request: Ticketed, reply: FastifyReply, done: () => void) => {
      const hash = this.hashOf(request);
      if (hash === undefined) return done();
      const known = this.access.knownIdentity(hash);
      if (known !== undefined) return this.serve(request, reply, known, done);
      // Unknown and revoked tokens go on to the application, which refuses them.
      this.access.authenticateHash(hash).then(
        (identity) => this.serve(request, reply, identity, done),
        () => done(),
      );
    });
    fastify.addHook('onSend', (request: Ticketed, reply, payload, done) => {
      const ticket = request[TICKET];
      if (ticket && reply.statusCode === 200 && typeof payload === 'string')
        this.keep(ticket, reply, payload);
      done(null, payload);
    });
  }

  /** Entries held now. */
  size(): number {
    return this.entries.size;
  }

  /** The token hash of a request whose answer may be kept, if it is one. */
  private hashOf(request: FastifyRequest): string | undefined {
    if (request.method !== 'GET' || !isLimitedPath(request.url)) return undefined;
    if (!cacheMayAnswer(this.changes)) return undefined;
    return bearerHash(request.headers) ?? undefined;
  }

  /** Answers from the cache, or lets the request go on (with a ticket to keep its answer). */
  private serve(request: Ticketed, reply: FastifyReply, identity: Identity | null, done: () => void): void {
    if (!identity) {
      done();
      return;
    }
    // Keyed by user: answers depend on the caller's memberships, which every token of a user shares.
    const key = `${identity.userId}\u0000${request.url}`;
    const hit = this.entries.get(key);
    if (!hit) {
      request[TICKET] = { key, generation: this.generation };
      done();
      return;
    }
    reply.code(200).header('content-type', hit.contentType);
    if (hit.etag !== undefined) reply.header('etag', hit.etag);
    reply.send(hit.body);
  }

  private keep(ticket: Ticket, reply: FastifyReply, body: string): void {
    if (ticket.generation !== this.generation || body.length > MAX_BODY_BYTES) return;
    if (/\bno-store\b/i.test(String(reply.getHeader('cache-control') ?? ''))) return;
    if (!this.changes.active()) return;
    if (this.entries.size >= MAX_ENTRIES || this.bytes + body.length > MAX_TOTAL_BYTES) this.clear();
    const etag = reply.getHeader('etag');
    const previous = this.entries.get(ticket.key);
    if (previous) this.bytes -= previous.body.length;
    this.entries.set(ticket.key, {
      body,
      contentType: String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8'),
      etag: etag === undefined ? undefined : String(etag),
    });
    this.bytes += body.length;
  }

  private clear(): void {
    this.generation++;
    this.entries.clear();
    this.bytes = 0;
  }
}
