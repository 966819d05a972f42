import { HttpException, Logger, ServiceUnavailableException } from '@nestjs/common';
import { Agent, request } from 'undici';
import { withEtag } from '../http/etag';
import { REQUEST_ID_HEADER } from '../observability/request-context';
import { ReplicaDiscovery } from './replica-discovery';
import {
  INTERNAL_TOKEN_HEADER,
  RPC_PATH,
  RPC_REFUSED_HEADER,
  type RpcCall,
  type RpcKind,
} from './rpc.protocol';

/** Errors that mean the request never reached a live process, so another replica may take it. */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET_BEFORE_SEND',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'UND_ERR_SOCKET_CONNECT',
]);

/** A socket that broke mid-call: safe to repeat only for queries, which change nothing. */
const BROKEN = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

function broken(error: unknown): boolean {
  const code = (error as { code?: string })?.code ?? '';
  const cause = (error as { cause?: { code?: string } })?.cause?.code ?? '';
  return BROKEN.has(code) || BROKEN.has(cause);
}

function unreachable(error: unknown): boolean {
  const code = (error as { code?: string; cause?: { code?: string } })?.code;
  const cause = (error as { cause?: { code?: string } })?.cause?.code;
  return UNREACHABLE.has(code ?? '') || UNREACHABLE.has(cause ?? '') || code === 'UND_ERR_CONNECT_TIMEOUT';
}

export interface RpcTargets {
  command: string[];
  query: string[];
}

/**
 * Calls command or query replicas round-robin over keep-alive connections. A replica that refuses the
 * connection (it died or is restarting) is skipped for a while and the call goes to the next one; a
 * call already sent to a replica that then dies is not repeated (a write could be applied twice).
 */
export class RpcClient {
  private readonly agent = new Agent({
    keepAliveTimeout: 10_000,
    connections: 128,
    connect: { timeout: 1_000 },
  });
  private readonly next: Record<RpcKind, number> = { command: 0, query: 0 };
  private readonly downUntil = new Map<string, number>();
  private readonly logger = new Logger('rpc');
  private readonly discovery: Record<RpcKind, ReplicaDiscovery>;

  constructor(
    targets: RpcTargets,
    private readonly internalToken: string,
    private readonly timeoutMs = 30_000,
  ) {
    if (targets.command.length === 0 || targets.query.length === 0) {
      throw new Error('the gateway needs at least one command and one query service');
    }
    this.discovery = {
      command: new ReplicaDiscovery(targets.command),
      query: new ReplicaDiscovery(targets.query),
    };
  }

  /** Resolves service names to their replicas' addresses, and keeps doing so. */
  async start(): Promise<void> {
    await Promise.all([this.discovery.command.start(), this.discovery.query.start()]);
  }

  async call(kind: RpcKind, call: RpcCall, requestId?: string): Promise<unknown> {
    const replicas = this.order(kind);
    let lastError: unknown;
    for (const base of replicas) {
      try {
        return await this.send(base, call, requestId);
      } catch (error) {
        if (kind === 'command' && broken(error)) {
          // The replica died with the command in flight: it may or may not have been applied.
          throw new HttpException(
            'The service handling this request stopped before answering; check before retrying',
            502,
          );
        }
        if (!unreachable(error) && !broken(error)) throw error;
        lastError = error;
        this.downUntil.set(base, Date.now() + 1_000);
        this.logger.warn(`${kind} replica ${base} unreachable, trying another`);
      }
    }
    this.logger.error(`no ${kind} replica reachable: ${(lastError as Error)?.message}`);
    throw new ServiceUnavailableException(`No ${kind} service is reachable; retry shortly`);
  }

  /** Live replicas first, in round-robin order; replicas marked down last, in case all are. */
  private order(kind: RpcKind): string[] {
    const all = this.discovery[kind].replicas();
    const start = this.next[kind]++ % all.length;
    const rotated = [...all.slice(start), ...all.slice(0, start)];
    const now = Date.now();
    const up = rotated.filter((b) => (this.downUntil.get(b) ?? 0) <= now);
    return [...up, ...rotated.filter((b) => !up.includes(b))];
  }

  private async send(base: string, call: RpcCall, requestId?: string): Promise<unknown> {
    const response = await request(`${base}${RPC_PATH}`, {
      method: 'POST',
      dispatcher: this.agent,
      headers: {
        'content-type': 'application/json',
        [INTERNAL_TOKEN_HEADER]: this.internalToken,
        ...(requestId ? { [REQUEST_ID_HEADER]: requestId } : {}),
      },
      body: JSON.stringify(call),
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
    });
    const text = await response.body.text();
    const body = text ? JSON.parse(text) : undefined;
    if (response.statusCode >= 400) {
      const message = body?.error?.message ?? `internal call failed with ${response.statusCode}`;
      if (response.headers[RPC_REFUSED_HEADER]) {
        this.logger.error(`${base} refused ${call.service}.${call.method}: ${message}`);
        throw new HttpException('The gateway could not call the service handling this request', 502);
      }
      throw new HttpException(message, response.statusCode);
    }
    const result = body?.result;
    return result && typeof result === 'object' ? withEtag(result, body?.etag ?? undefined) : result;
  }

  async close(): Promise<void> {
    this.discovery.command.stop();
    this.discovery.query.stop();
    await this.agent.close();
  }
}
