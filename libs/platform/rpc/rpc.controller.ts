import { timingSafeEqual } from 'node:crypto';
import {
  Body,
  Controller,
  Headers,
  HttpCode,
  Inject,
  NotFoundException,
  Post,
  UnauthorizedException,
} from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { Public } from '../auth/auth.guard';
import { etagOf } from '../http/etag';
import { withReadFloor } from '../projector/view-changes';
import { INTERNAL_TOKEN_HEADER, type RpcCall, rpcToken } from './rpc.protocol';
import { ViewsCheckpoint } from './views-checkpoint';

export const RPC_SERVER_OPTIONS = Symbol('RPC_SERVER_OPTIONS');

export interface RpcServerOptions {
  internalToken: string;
  /** Bound on the wait for views to reach a caller's position before a query answers 503. */
  consistencyTimeoutMs: number;
}

function sameSecret(given: string | undefined, expected: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Executes calls from the gateway on this process's services (the ones its feature modules expose). */
@Controller('internal')
export class RpcController {
  constructor(
    private readonly moduleRef: ModuleRef,
    @Inject(RPC_SERVER_OPTIONS) private readonly options: RpcServerOptions,
    private readonly checkpoint: ViewsCheckpoint,
  ) {}

  @Public()
  @Post('rpc')
  @HttpCode(200)
  async call(
    @Body() call: RpcCall,
    @Headers(INTERNAL_TOKEN_HEADER) token?: string,
  ): Promise<{ result: unknown; etag?: number }> {
    if (!sameSecret(token, this.options.internalToken))
      throw new UnauthorizedException('internal calls only');
    const service = this.resolve(call?.service);
    const method = typeof call.method === 'string' && !call.method.startsWith('_') ? call.method : '';
    const fn = method && method !== 'constructor' ? (service as Record<string, unknown>)[method] : undefined;
    if (typeof fn !== 'function') throw new NotFoundException(`no method ${call.service}.${call.method}`);
    const floor = typeof call.minPosition === 'number' && call.minPosition > 0 ? call.minPosition : 0;
    if (floor > 0) await this.checkpoint.waitFor(floor, this.options.consistencyTimeoutMs);
    const args = Array.isArray(call.args) ? call.args : [];
    // In-memory caches of the views are used only if their change feed covers the floor too.
    const result = await withReadFloor(floor, () => fn.apply(service, args));
    return { result: result ?? null, etag: etagOf(result) };
  }

  private resolve(name: unknown): object {
    if (typeof name !== 'string') throw new NotFoundException('no such service');
    try {
      return this.moduleRef.get(rpcToken(name), { strict: false });
    } catch {
      throw new NotFoundException(`service ${name} is not served here`);
    }
  }
}

/** Lets a gateway make a query service wait until its views include a position. */
export class ConsistencyProbe {
  async reached(): Promise<boolean> {
    return true;
  }
}
