import { Access } from '@app/platform/auth/access';
import type { RemoteServices } from '@app/platform/rpc/feature-module';
import { ConsistencyProbe } from '@app/platform/rpc/rpc.controller';

/**
 * The platform's services the gateway calls on query replicas: route authentication and authorization,
 * and the consistency probe. The features' are their modules' commands and queries that mark methods
 * `@Remote` (`featureModule`).
 */
export const CORE_REMOTE: RemoteServices = { query: [Access, ConsistencyProbe] };
