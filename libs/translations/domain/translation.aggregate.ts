import { aggregate } from '@app/platform/domain/aggregate';
import { translationDecider, translationStream } from './translation.decider';

export type { TranslationCommand } from './translation.decider';

/**
 * An organization's translation settings.
 * Written through `translationAggregate.message(id, command, ctx)` on the `CommandBus`.
 */
export const translationAggregate = aggregate({
  name: 'translation',
  decider: translationDecider,
  stream: translationStream,
});
