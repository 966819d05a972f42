import { aggregate } from '@app/platform/domain/aggregate';
import { inviteLinkDecider, inviteLinkStream } from './invite-link.decider';

export type { InviteLinkCommand } from './invite-link.decider';

/**
 * An invite link to an organization, or to a space or collection of it.
 * Written through `inviteLinkAggregate.message(id, command, ctx)` on the `CommandBus`.
 */
export const inviteLinkAggregate = aggregate({
  name: 'invite-link',
  decider: inviteLinkDecider,
  stream: inviteLinkStream,
});
