import { aggregate } from '@app/platform/domain/aggregate';
import { commentDecider, commentStream } from './comment.decider';

export type { CommentCommand } from './comment.decider';

/**
 * A comment on a space or a change request, with its replies and reactions.
 * Written through `commentAggregate.message(id, command, ctx)` on the `CommandBus`.
 */
export const commentAggregate = aggregate({
  name: 'comment',
  decider: commentDecider,
  stream: commentStream,
});
