import { aggregate } from '@app/platform/domain/aggregate';
import { siteDecider, siteStream } from './site.decider';

export type { SiteCommand } from './site.decider';

/**
 * A site. Listed in the manifest's `aggregates`, which gives it its one command handler; written
 * through `siteAggregate.message(id, command, ctx)` on the `CommandBus`.
 */
export const siteAggregate = aggregate({ name: 'site', decider: siteDecider, stream: siteStream });
