import { createHash, timingSafeEqual } from 'node:crypto';
import {
  BadRequestException,
  Body,
  Controller,
  Headers,
  HttpCode,
  Inject,
  NotFoundException,
  Post,
  type Provider,
  Res,
  type Type,
  UnauthorizedException,
} from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { FastifyReply } from 'fastify';
import { Public } from '../auth/auth.guard';
import { etagOf } from '../http/etag';
import { withReadFloor } from '../projector/view-changes';
import { allowlistOf, checkArgs, Remote, type RemoteArg } from './remote-method';
import { INTERNAL_TOKEN_HEADER, RPC_REFUSED_HEADER, rpcToken } from './rpc.protocol';
import { ViewsCheckpoint } from './views-checkpoint';

export const RPC_SERVER_OPTIONS = Symbol('RPC_SERVER_OPTIONS');

export interface RpcServerOptions {
  internalToken: string;
  /** Bound on the wait for views to reach a caller's position before a query answers 503. */
  consistencyTimeoutMs: number;
}

/** A service this process serves to RPC calls, with its allowlist. */
interface ExposedService {
  instance: Record<string, (...args: unknown[]) => unknown>;
  methods: ReadonlyMap<string, readonly RemoteArg<unknown>[]>;
}

/** Serves `cls`'s `@Remote` methods, and only those, to RPC calls naming it. */
export function exposedProvider(cls: Type): Provider {
  const methods = allowlistOf(cls);
  return {
    provide: rpcToken(cls.name),
    useFactory: (instance: ExposedService['instance']): ExposedService => ({ instance, methods }),
    inject: [cls],
  };
}

const digest = (secret: string) => createHash('sha256').update(secret).digest();

/** The body of a call, once it has the shape of one (`RpcCall`); a 400 naming the field otherwise. */
function callOf(body: unknown) {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new BadRequestException(
      'body: must be an object {service, method, args, minPosition?, readFloor?}',
    );
  }
  const { service, method, args, minPosition, readFloor, ...rest } = body as Record<string, unknown>;
  const extra = Object.keys(rest);
  if (extra.length > 0) throw new BadRequestException(`property ${extra[0]} should not exist`);
  if (typeof service !== 'string') throw new BadRequestException('service: must be a string');
  if (typeof method !== 'string') throw new BadRequestException('method: must be a string');
  const position = (value: unknown, name: string) => {
    if (value !== undefined && !(Number.isSafeInteger(value) && (value as number) >= 0))
      throw new BadRequestException(`${name}: must be an integer from 0`);
    return (value as number | undefined) ?? 0;
  };
  return {
    service,
    method,
    args,
    minPosition: position(minPosition, 'minPosition'),
    readFloor: position(readFloor, 'readFloor'),
  };
}

/**
 * Executes calls from the gateway on this process's services: only the methods they mark `@Remote`, of
 * the services this role exposes, with arguments of the declared shapes. Answers 401 without the
 * internal token, 404 for a service or method not on the allowlist, 400 for malformed arguments.
 */
@Controller('internal')
export class RpcController {
  /** The token's digest: compared in constant time whatever the length of what a caller sends. */
  private readonly expected: Buffer;

  constructor(
    private readonly moduleRef: ModuleRef,
    @Inject(RPC_SERVER_OPTIONS) private readonly options: RpcServerOptions,
    private readonly checkpoint: ViewsCheckpoint,
  ) {
    this.expected = digest(options.internalToken);
  }

  @Public()
  @Post('rpc')
  @HttpCode(200)
  async call(
    @Body() body: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Headers(INTERNAL_TOKEN_HEADER) token?: unknown,
  ): Promise<{ result: unknown; etag?: number }> {
    let admitted: ReturnType<RpcController['admit']>;
    try {
      admitted = this.admit(body, token);
    } catch (error) {
      reply.header(RPC_REFUSED_HEADER, '1');
      throw error;
    }
    const { call, service, args } = admitted;
    const floor = call.minPosition;
    if (floor > 0) await this.checkpoint.waitFor(floor, this.options.consistencyTimeoutMs);
    // In-memory caches of the views are used only if their change feed covers the floor too.
    const readFloor = Math.max(floor, call.readFloor);
    const result = await withReadFloor(readFloor, () => service.instance[call.method](...args));
    return { result: result ?? null, etag: etagOf(result) };
  }

  /** The call, its service and its checked arguments; a refusal of the call itself otherwise. */
  private admit(body: unknown, token: unknown) {
    if (typeof token !== 'string' || !timingSafeEqual(digest(token), this.expected)) {
      throw new UnauthorizedException('Missing or wrong X-Internal-Token header');
    }
    const call = callOf(body);
    const service = this.resolve(call.service);
    const specs = service.methods.get(call.method);
    if (!specs) throw new NotFoundException(`${call.service}.${call.method} is not callable`);
    return { call, service, args: checkArgs(`${call.service}.${call.method}`, specs, call.args) };
  }

  private resolve(name: string): ExposedService {
    try {
      return this.moduleRef.get<string, ExposedService>(rpcToken(name), { strict: false });
    } catch {
      throw new NotFoundException(`service ${name} is not served here`);
    }
  }
}

/** Lets a gateway make a query service wait until its views include a position. */
export class ConsistencyProbe {
  @Remote()
  async reached(): Promise<boolean> {
    return true;
  }
}
