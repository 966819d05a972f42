import { aggregate } from '@app/platform/domain/aggregate';
import { grantDecider, grantStream } from './grant.decider';

export type { GrantCommand } from './grant.decider';

/**
 * The grants of roles on one space or collection.
 * Written through `grantAggregate.message(id, command, ctx)` on the `CommandBus`.
 */
export const grantAggregate = aggregate({ name: 'grant', decider: grantDecider, stream: grantStream });
