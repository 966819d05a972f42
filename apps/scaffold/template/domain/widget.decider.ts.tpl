import {
  conflict,
  type Decider,
  type Decisions,
  decideBy,
  invalid,
  notFound,
} from '@app/platform/domain/decider';

export interface WidgetSettings {
  title: string;
}

export type WidgetState =
  | { status: 'none' }
  | ({ status: 'active'; id: string; organization: string } & WidgetSettings)
  | { status: 'deleted'; id: string };

export type WidgetEvent =
  | {
      type: 'WidgetCreated';
      data: { widgetId: string; organization: string; title: string; createdAt: string };
    }
  | { type: 'WidgetUpdated'; data: { widgetId: string; changes: Partial<WidgetSettings>; updatedAt: string } }
  | { type: 'WidgetDeleted'; data: { widgetId: string; organization: string; deletedAt: string } };

export type WidgetCommand =
  | { type: 'CreateWidget'; widgetId: string; organization: string; title: string; at: number }
  | { type: 'UpdateWidget'; changes: Partial<WidgetSettings>; at: number }
  | { type: 'DeleteWidget'; at: number };

export const widgetStream = (widgetId: string) => `__name__-${widgetId}`;

const iso = (ms: number) => new Date(ms).toISOString();

function live(state: WidgetState) {
  if (state.status !== 'active') throw notFound('__Label__ not found');
  return state;
}

/** What each command decides: one function per command type. */
const decisions: Decisions<WidgetCommand, WidgetEvent, WidgetState> = {
  CreateWidget(command, state) {
    if (state.status !== 'none') throw conflict('__Label__ already exists');
    if (!command.title.trim()) throw invalid('title must not be empty');
    const { widgetId, organization, title } = command;
    return [{ type: 'WidgetCreated', data: { widgetId, organization, title, createdAt: iso(command.at) } }];
  },

  UpdateWidget(command, state) {
    const widget = live(state);
    if (command.changes.title !== undefined && !command.changes.title.trim())
      throw invalid('title must not be empty');
    const changes = command.changes;
    return [{ type: 'WidgetUpdated', data: { widgetId: widget.id, changes, updatedAt: iso(command.at) } }];
  },

  DeleteWidget(command, state) {
    const widget = live(state);
    const data = { widgetId: widget.id, organization: widget.organization, deletedAt: iso(command.at) };
    return [{ type: 'WidgetDeleted', data }];
  },
};

export const widgetDecider: Decider<WidgetCommand, WidgetEvent, WidgetState> = {
  initialState: { status: 'none' },

  decide: decideBy(decisions),

  evolve(state, event) {
    switch (event.type) {
      case 'WidgetCreated':
        return {
          status: 'active',
          id: event.data.widgetId,
          organization: event.data.organization,
          title: event.data.title,
        };
      case 'WidgetUpdated':
        return state.status === 'active' ? { ...state, ...event.data.changes } : state;
      case 'WidgetDeleted':
        return { status: 'deleted', id: event.data.widgetId };
      default:
        return state;
    }
  },
};
