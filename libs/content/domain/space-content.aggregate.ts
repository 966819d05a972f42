import { aggregate } from '@app/platform/domain/aggregate';
import { spaceContentDecider, spaceContentStream } from './space-content.decider';

export type { SpaceContentCommand } from './space-content.decider';

/**
 * A space's current revision and its change requests; its commands may be computed on its state.
 * Written through `spaceContentAggregate.message(id, command, ctx)` on the `CommandBus`.
 */
export const spaceContentAggregate = aggregate({
  name: 'space-content',
  decider: spaceContentDecider,
  stream: spaceContentStream,
});
