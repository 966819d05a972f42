import { projection } from '@app/platform/projector/projection';
import { collectionName, type Doc } from '@app/platform/readstore/read-store.port';

export interface WidgetDoc extends Doc {
  organization: string;
  title: string;
  createdAt: string;
  updatedAt: string;
  /** Revision of the widget's stream: its ETag. */
  streamRevision: number;
}

export const WIDGETS = collectionName<WidgetDoc>('__names_snake__');

/** __Labels__; a deleted one is gone from the views. */
export const widgetProjection = projection('__names__', [{ collection: WIDGETS, fields: ['organization', 'createdAt'] }], {
  WidgetCreated: async (e, ctx) => {
    const { widgetId, organization, title, createdAt } = e.data;
    await ctx.put(WIDGETS, {
      id: widgetId,
      organization,
      title,
      createdAt,
      updatedAt: createdAt,
      streamRevision: e.revision,
    });
  },
  WidgetUpdated: async (e, ctx) => {
    const doc = await ctx.get(WIDGETS, e.data.widgetId);
    if (doc) {
      const { changes, updatedAt } = e.data;
      await ctx.put(WIDGETS, { ...doc, ...changes, updatedAt, streamRevision: e.revision });
    }
  },
  WidgetDeleted: async (e, ctx) => {
    await ctx.delete(WIDGETS, e.data.widgetId);
  },
});
