import type { FeatureManifest } from '@app/platform/feature/feature';
import { resourceScope } from '@app/platform/feature/route-scope';
import { widgetAggregate } from './domain/widget.aggregate';
import { widgetAuditSubjects } from './domain/widget.audit';
import { WIDGETS, widgetProjection } from './read/widget.projection';

/** __Labels__: TODO say what they are. */
export const widgetsFeature: FeatureManifest = {
  name: '__names__',
  module: async () => (await import('./widgets.module')).WidgetsModule,
  aggregates: [widgetAggregate],
  projections: [widgetProjection],
  audited: widgetAuditSubjects,
  scopes: { widgetId: resourceScope(WIDGETS, '__Label__') },
  fixtures: {
    widgetId: async ({ call, ids, label }) =>
      ((await call('POST', `/v1/orgs/${ids.organizationId}/__names__`, { title: `${label} __label__` })) as { id: string }).id,
  },
};
