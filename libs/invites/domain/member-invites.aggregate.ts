import { aggregate } from '@app/platform/domain/aggregate';
import { memberInvitesDecider, memberInvitesStream } from './member-invites.decider';

export type { MemberInvitesCommand } from './member-invites.decider';

/**
 * An organization's pending email invites.
 * Written through `memberInvitesAggregate.message(id, command, ctx)` on the `CommandBus`.
 */
export const memberInvitesAggregate = aggregate({
  name: 'member-invites',
  decider: memberInvitesDecider,
  stream: memberInvitesStream,
});
