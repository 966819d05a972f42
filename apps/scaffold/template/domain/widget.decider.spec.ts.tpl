import { spec } from '@app/platform/domain/decider.testing';
import { type WidgetCommand, type WidgetEvent, widgetDecider } from './widget.decider';

const AT = Date.parse('2026-01-01T00:00:00.000Z');
const ISO = '2026-01-01T00:00:00.000Z';
const create = (title: string): WidgetCommand => ({
  type: 'CreateWidget',
  widgetId: 'w1',
  organization: 'o1',
  input: { title },
  at: AT,
});
const created: WidgetEvent = {
  type: 'WidgetCreated',
  data: { widgetId: 'w1', organization: 'o1', title: 'First', createdAt: ISO },
};
const deleted: WidgetEvent = { type: 'WidgetDeleted', data: { widgetId: 'w1', organization: 'o1', deletedAt: ISO } };

describe('__label__ decider', () => {
  const widget = spec(widgetDecider);

  it('creates a __label__', () => {
    widget.when(create('First')).thenEmits([created]);
  });

  it('refuses an empty title', () => {
    widget.when(create(' ')).thenThrows('invalid', /title/);
  });

  it('updates what changes, and nothing when nothing does', () => {
    widget
      .given([created])
      .when({ type: 'UpdateWidget', organization: 'o1', input: { title: 'Second' }, at: AT })
      .thenEmits([
        {
          type: 'WidgetUpdated',
          data: { widgetId: 'w1', organization: 'o1', changes: { title: 'Second' }, updatedAt: ISO },
        },
      ]);
    widget.given([created]).when({ type: 'UpdateWidget', organization: 'o1', input: {}, at: AT }).thenEmits([]);
  });

  it('deletes a live __label__ of its organization, and nothing else', () => {
    widget.given([created]).when({ type: 'DeleteWidget', organization: 'o1', at: AT }).thenEmits([deleted]);
    widget.given([created, deleted]).when({ type: 'DeleteWidget', organization: 'o1', at: AT }).thenThrows('not_found');
    widget.given([created]).when({ type: 'DeleteWidget', organization: 'o2', at: AT }).thenThrows('not_found');
    widget.when({ type: 'UpdateWidget', organization: 'o1', input: {}, at: AT }).thenThrows('not_found');
  });
});
