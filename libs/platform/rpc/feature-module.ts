import type { DynamicModule, Provider, Type } from '@nestjs/common';
import type { ServiceRole } from '../feature/service-role';
import { remoteProvider } from './remote';
import { exposedProvider } from './rpc.controller';

export type { ServiceRole };

/** The parts of a feature library, sorted by the role that needs them. */
export interface Feature {
  controllers?: Type[];
  /** Command handlers, write services and what they need. */
  commands?: Provider[];
  /** Query services and presenters. */
  queries?: Provider[];
  /** Job handlers (`@JobHandler()` providers) and what they need. */
  jobs?: Provider[];
  /**
   * Services the controllers call, reached over RPC when the controllers run in the gateway: a command
   * service exposes the `command` ones, a query service the `query` ones; of each, the methods marked
   * `@Remote` only.
   */
  remote?: RemoteServices;
}

/** Services called over RPC, by the kind of replica that serves them. */
export interface RemoteServices {
  command?: Type[];
  query?: Type[];
}

const tokenOf = (p: Provider) => (typeof p === 'function' ? p : (p as { provide: unknown }).provide);

/** The gateway's stand-ins for the services, each calling replicas of its kind. */
export function remoteProviders(remote: RemoteServices): Provider[] {
  return [
    ...(remote.command ?? []).map((cls) => remoteProvider(cls, 'command')),
    ...(remote.query ?? []).map((cls) => remoteProvider(cls, 'query')),
  ];
}

/** What a command or query service serves to RPC calls: the services of its kind; nothing for other roles. */
export function exposedProviders(remote: RemoteServices, role: ServiceRole): Provider[] {
  const services = role === 'command' ? remote.command : role === 'query' ? remote.query : undefined;
  return (services ?? []).map(exposedProvider);
}

/** Builds the module of one feature for one role. */
export function featureModule(module: Type, role: ServiceRole, feature: Feature): DynamicModule {
  const { controllers = [], commands = [], queries = [], jobs = [], remote = {} } = feature;
  let providers: Provider[];
  switch (role) {
    case 'standalone':
      // A provider both sides need (a cache of immutable objects) is listed in both, and made once.
      providers = [...new Set([...commands, ...queries, ...jobs])];
      break;
    case 'gateway':
      providers = remoteProviders(remote);
      break;
    case 'command':
      providers = [...commands, ...exposedProviders(remote, role)];
      break;
    case 'query':
      providers = [...queries, ...exposedProviders(remote, role)];
      break;
    case 'worker':
    case 'cli':
      providers = [...new Set([...commands, ...jobs])];
      break;
  }
  const withHttp = role === 'standalone' || role === 'gateway';
  return {
    module,
    controllers: withHttp ? controllers : [],
    providers,
    exports: providers.map(tokenOf) as DynamicModule['exports'],
  };
}
