import { aggregate } from '@app/platform/domain/aggregate';
import { widgetDecider, widgetStream } from './widget.decider';

export type { WidgetCommand } from './widget.decider';

/**
 * A __label__. Listed in the manifest's `aggregates`, which gives it its one command handler; written
 * through `widgetAggregate.message(id, command, ctx)` on the `CommandBus`.
 */
export const widgetAggregate = aggregate({ name: '__name__', decider: widgetDecider, stream: widgetStream });
