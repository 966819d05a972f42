import { aggregate } from '@app/platform/domain/aggregate';
import { teamDecider, teamStream } from './team.decider';

export type { TeamCommand } from './team.decider';

/**
 * A team of an organization and its members.
 * Written through `teamAggregate.message(id, command, ctx)` on the `CommandBus`.
 */
export const teamAggregate = aggregate({ name: 'team', decider: teamDecider, stream: teamStream });
