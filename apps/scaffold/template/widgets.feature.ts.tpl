import type { FeatureManifest } from '@app/platform/feature/feature';
import { resourceScope } from '@app/platform/feature/route-scope';
import { widgetAuditSubjects } from './domain/widget.audit';
import { WIDGETS, widgetProjection } from './read/widget.projection';

/** Widgets: TODO say what they are. */
export const widgetsFeature: FeatureManifest = {
  name: 'widgets',
  module: async () => (await import('./widgets.module')).WidgetsModule,
  projections: [widgetProjection],
  audited: widgetAuditSubjects,
  scopes: { widgetId: resourceScope(WIDGETS, 'Widget') },
  fixtures: {
    widgetId: async ({ call, ids, label }) =>
      ((await call('POST', `/v1/orgs/${ids.organizationId}/widgets`, { title: `${label} widget` })) as { id: string }).id,
  },
};
