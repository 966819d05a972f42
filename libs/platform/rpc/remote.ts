import { AsyncLocalStorage } from 'node:async_hooks';
import type { Provider, Type } from '@nestjs/common';
import { allowlistOf } from './remote-method';
import type { RpcClient } from './rpc.client';
import type { RpcKind } from './rpc.protocol';

export const RPC_CLIENT = Symbol('RPC_CLIENT');

/**
 * Read-your-writes through the gateway: the highest log position any write through this gateway has
 * reached, and, inside `ReadYourWrites.after`, the position of the write being answered. Every query
 * asks the query service to wait until its views include that position.
 */
export class ConsistencyFloor {
  private highWater = 0;
  private readonly scope = new AsyncLocalStorage<number>();

  observe(position: number): void {
    if (position > this.highWater) this.highWater = position;
  }

  current(): number {
    return Math.max(this.highWater, this.scope.getStore() ?? 0);
  }

  within<T>(position: number, fn: () => Promise<T>): Promise<T> {
    this.observe(position);
    return this.scope.run(position, fn);
  }
}

export const CONSISTENCY_FLOOR = Symbol('CONSISTENCY_FLOOR');

/** The request id of the current call, when the caller keeps one (set by the gateway's request context). */
export type RequestIdSource = () => string | undefined;

/**
 * Stands in for a service class in the gateway: each of its `@Remote` methods, and nothing else, becomes
 * an RPC to a replica of the given kind. Results that carry a log position (writes) raise the
 * consistency floor.
 */
export function remoteService<T>(
  cls: Type<T>,
  kind: RpcKind,
  client: RpcClient,
  floor: ConsistencyFloor,
  requestId: RequestIdSource,
): T {
  const stand: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const method of allowlistOf(cls).keys()) {
    stand[method] = async (...args: unknown[]) => {
      const seen = kind === 'query' ? { minPosition: floor.current() } : { readFloor: floor.current() };
      const result = await client.call(kind, { service: cls.name, method, args, ...seen }, requestId());
      const position = (result as { position?: unknown } | null)?.position;
      if (kind === 'command' && typeof position === 'number') floor.observe(position);
      return result;
    };
  }
  return stand as T;
}

export function remoteProvider(cls: Type, kind: RpcKind): Provider {
  // A service with nothing callable is a mistake in the module listing it: refused as the module is built.
  allowlistOf(cls);
  return {
    provide: cls,
    useFactory: (client: RpcClient, floor: ConsistencyFloor, requestId: RequestIdSource) =>
      remoteService(cls, kind, client, floor, requestId),
    inject: [RPC_CLIENT, CONSISTENCY_FLOOR, REQUEST_ID_SOURCE],
  };
}

export const REQUEST_ID_SOURCE = Symbol('REQUEST_ID_SOURCE');
