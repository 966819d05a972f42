import { documents, projection } from '@app/platform/projector/projection';
import { collectionName, type Doc } from '@app/platform/readstore/read-store.port';
import type { WidgetEvent } from '../domain/widget.decider';

export interface WidgetDoc extends Doc {
  organization: string;
  title: string;
  createdAt: string;
  updatedAt: string;
  /** Revision of the widget's stream: its ETag. */
  streamRevision: number;
}

export const WIDGETS = collectionName<WidgetDoc>('__names_snake__');

const widgets = documents(WIDGETS);

/** __Labels__; a deleted one is gone from the views. */
export const widgetProjection = projection<WidgetEvent>('__names__', [{ collection: WIDGETS, fields: ['organization', 'createdAt'] }], {
  WidgetCreated: widgets.put((e) => {
    const { widgetId, organization, title, createdAt } = e.data;
    return { id: widgetId, organization, title, createdAt, updatedAt: createdAt, streamRevision: e.revision };
  }),
  WidgetUpdated: widgets.update(
    (e) => e.data.widgetId,
    (doc, e) => ({ ...doc, ...e.data.changes, updatedAt: e.data.updatedAt, streamRevision: e.revision }),
  ),
  WidgetDeleted: widgets.delete((e) => e.data.widgetId),
});
