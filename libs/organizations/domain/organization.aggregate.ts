import { aggregate } from '@app/platform/domain/aggregate';
import { organizationDecider, organizationStream } from './organization.decider';

export type { OrganizationCommand } from './organization.decider';

/**
 * An organization: its settings, email domains and members.
 * Written through `organizationAggregate.message(id, command, ctx)` on the `CommandBus`.
 */
export const organizationAggregate = aggregate({
  name: 'organization',
  decider: organizationDecider,
  stream: organizationStream,
});
