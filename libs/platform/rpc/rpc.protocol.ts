/**
 * The internal transport between the gateway and the command and query services: HTTP/1.1 with
 * keep-alive, one POST per call, JSON in and out. Errors come back as the public error envelope with
 * its status, so the gateway answers exactly what a standalone server would.
 */
export interface RpcCall {
  /** Class name of the service on the remote side, e.g. `SpaceService`. */
  service: string;
  method: string;
  args: unknown[];
  /** A query waits until the views include this log position (read-your-writes across processes). */
  minPosition?: number;
  /**
   * A command does not wait, but its reads of the views (the service's checks: may the caller grant here,
   * does the parent exist) must not come from a cache behind this position: they go to the store instead.
   */
  readFloor?: number;
}

export const RPC_PATH = '/internal/rpc';
export const INTERNAL_TOKEN_HEADER = 'x-internal-token';
/**
 * Set on an answer that refuses the call itself (token, service, method, arguments), as opposed to an
 * error of the service called: the gateway answers such a refusal 502, as the fault is between the
 * gateway and the service (a mismatched INTERNAL_TOKEN or version), never the public caller's.
 */
export const RPC_REFUSED_HEADER = 'x-rpc-refused';

/** What each remote service is for: commands go to command replicas, queries to query replicas. */
export type RpcKind = 'command' | 'query';

/** Provider token under which a process exposes a service to RPC calls. */
export const rpcToken = (service: string) => `rpc:${service}`;
