import { aggregate } from '@app/platform/domain/aggregate';
import { spaceDecider, spaceStream } from './space.decider';

export type { SpaceCommand } from './space.decider';

/**
 * A space (its content is the `space-content` aggregate).
 * Written through `spaceAggregate.message(id, command, ctx)` on the `CommandBus`.
 */
export const spaceAggregate = aggregate({ name: 'space', decider: spaceDecider, stream: spaceStream });
