import { givenProjection, recorderOf } from '@app/platform/projector/projection.testing';
import { type WidgetEvent, widgetStream } from '../domain/widget.decider';
import { WIDGETS, widgetProjection } from './widget.projection';

const recorded = recorderOf<WidgetEvent>();
const inStream = { stream: widgetStream('w1') };
const created = () =>
  recorded(
    'WidgetCreated',
    { widgetId: 'w1', organization: 'o1', title: 'First', createdAt: '2026-01-01T00:00:00.000Z' },
    inStream,
  );
const updated = () =>
  recorded(
    'WidgetUpdated',
    { widgetId: 'w1', organization: 'o1', changes: { title: 'Second' }, updatedAt: '2026-01-02T00:00:00.000Z' },
    inStream,
  );

const widgets = givenProjection(widgetProjection);

describe('widget projection', () => {
  it('records a widget and its changes, with its stream revision as ETag', async () => {
    await widgets.given(created(), updated()).thenDocuments(WIDGETS, [
      {
        id: 'w1',
        organization: 'o1',
        title: 'Second',
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-02T00:00:00.000Z',
        streamRevision: 1,
      },
    ]);
  });

  it('forgets a deleted widget', async () => {
    const deleted = recorded(
      'WidgetDeleted',
      { widgetId: 'w1', organization: 'o1', deletedAt: '2026-01-03T00:00:00.000Z' },
      inStream,
    );
    await widgets.given(created(), deleted).thenDocuments(WIDGETS, []);
  });

  it('changes nothing when replayed, and rebuilds to the same views', async () => {
    const scenario = widgets.given(created(), updated());
    await scenario.thenReplayChangesNothing();
    await scenario.thenRebuildMatches();
  });
});
