import { aggregate } from '@app/platform/domain/aggregate';
import { collectionDecider, collectionStream } from './collection.decider';

export type { CollectionCommand } from './collection.decider';

/**
 * A collection.
 * Written through `collectionAggregate.message(id, command, ctx)` on the `CommandBus`.
 */
export const collectionAggregate = aggregate({
  name: 'collection',
  decider: collectionDecider,
  stream: collectionStream,
});
