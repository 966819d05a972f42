import { spec } from '@app/platform/domain/decider.testing';
import { type WidgetEvent, widgetDecider } from './widget.decider';

const AT = Date.parse('2026-01-01T00:00:00.000Z');
const created: WidgetEvent = {
  type: 'WidgetCreated',
  data: { widgetId: 'w1', organization: 'o1', title: 'First', createdAt: '2026-01-01T00:00:00.000Z' },
};

describe('widget decider', () => {
  const widget = spec(widgetDecider);

  it('creates a widget', () => {
    widget
      .when({ type: 'CreateWidget', widgetId: 'w1', organization: 'o1', title: 'First', at: AT })
      .thenEmits([created]);
  });

  it('refuses an empty title', () => {
    widget
      .when({ type: 'CreateWidget', widgetId: 'w1', organization: 'o1', title: ' ', at: AT })
      .thenThrows('invalid', /title/);
  });

  it('updates and deletes a live widget, and nothing else', () => {
    widget
      .given([created])
      .when({ type: 'UpdateWidget', changes: { title: 'Second' }, at: AT })
      .thenEmits([
        {
          type: 'WidgetUpdated',
          data: { widgetId: 'w1', changes: { title: 'Second' }, updatedAt: '2026-01-01T00:00:00.000Z' },
        },
      ]);
    const deleted: WidgetEvent = {
      type: 'WidgetDeleted',
      data: { widgetId: 'w1', organization: 'o1', deletedAt: '2026-01-01T00:00:00.000Z' },
    };
    widget.given([created]).when({ type: 'DeleteWidget', at: AT }).thenEmits([deleted]);
    widget.given([created, deleted]).when({ type: 'DeleteWidget', at: AT }).thenThrows('not_found');
    widget.when({ type: 'UpdateWidget', changes: {}, at: AT }).thenThrows('not_found');
  });
});
