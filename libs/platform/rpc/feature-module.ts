import type { DynamicModule, Provider, Type } from '@nestjs/common';
import type { ServiceRole } from '../feature/service-role';
import { remoteProvider } from './remote';
import { rpcToken } from './rpc.protocol';

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
  /** Services the controllers call, reached over RPC when the controllers run in the gateway. */
  remote?: { command?: Type[]; query?: Type[] };
}

const tokenOf = (p: Provider) => (typeof p === 'function' ? p : (p as { provide: unknown }).provide);

function exposed(services: Type[] = []): Provider[] {
  return services.map((cls) => ({ provide: rpcToken(cls.name), useExisting: cls }));
}

/** Builds the module of one feature for one role. */
export function featureModule(module: Type, role: ServiceRole, feature: Feature): DynamicModule {
  const { controllers = [], commands = [], queries = [], jobs = [], remote = {} } = feature;
  let providers: Provider[];
  switch (role) {
    case 'standalone':
      providers = [...commands, ...queries, ...jobs];
      break;
    case 'gateway':
      providers = [
        ...(remote.command ?? []).map((cls) => remoteProvider(cls, 'command')),
        ...(remote.query ?? []).map((cls) => remoteProvider(cls, 'query')),
      ];
      break;
    case 'command':
      providers = [...commands, ...exposed(remote.command)];
      break;
    case 'query':
      providers = [...queries, ...exposed(remote.query)];
      break;
    case 'worker':
    case 'cli':
      providers = [...commands, ...jobs];
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
