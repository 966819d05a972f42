import type { DynamicModule, Provider, Type } from '@nestjs/common';
import type { ServiceRole } from '../feature/service-role';
import { remoteProvider } from './remote';
import { remoteMethods } from './remote-method';
import { exposedProvider } from './rpc.controller';

export type { ServiceRole };

/** The parts of a feature library, sorted by the role that needs them. */
export interface Feature {
  controllers?: Type[];
  /**
   * Write services and what they need. Those that mark methods `@Remote` are what the controllers call
   * over RPC when they run in the gateway: a command service exposes them, those methods only.
   */
  commands?: Provider[];
  /** Query services and presenters; a query service exposes those marking methods `@Remote`, as above. */
  queries?: Provider[];
  /** Job handlers (`@JobHandler()` providers) and what they need. */
  jobs?: Provider[];
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

const withRemoteMethods = (providers: Provider[]): Type[] =>
  providers.filter((p): p is Type => typeof p === 'function' && remoteMethods(p).size > 0);

/**
 * The services of a feature called over RPC, by the kind of replica serving them: the classes among its
 * `commands` and its `queries` that mark methods `@Remote`. One in both would leave the gateway unable
 * to tell which replicas to call, and is refused.
 */
export function remoteServicesOf({ commands = [], queries = [] }: Feature): RemoteServices {
  const command = withRemoteMethods(commands);
  const query = withRemoteMethods(queries);
  const both = command.find((cls) => query.includes(cls));
  if (both) {
    throw new Error(
      `${both.name} marks methods @Remote and is among both the commands and the queries: which replicas serve it?`,
    );
  }
  return { command, query };
}

/** Builds the module of one feature for one role. */
export function featureModule(module: Type, role: ServiceRole, feature: Feature): DynamicModule {
  const { controllers = [], commands = [], queries = [], jobs = [] } = feature;
  const remote = remoteServicesOf(feature);
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
