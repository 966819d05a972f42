import { aggregate } from '@app/platform/domain/aggregate';
import { userDecider, userStream } from './user.decider';

export type { UserCommand } from './user.decider';

/**
 * A user: their profile and API tokens.
 * Written through `userAggregate.message(id, command, ctx)` on the `CommandBus`.
 */
export const userAggregate = aggregate({ name: 'user', decider: userDecider, stream: userStream });
