import { invalid } from '@app/platform/domain/decider';
import {
  type ResourceCommand,
  type ResourceEvent,
  type ResourceState,
  resourceDecider,
} from '@app/platform/domain/resource-decider';

/** What a __label__ holds. */
export interface WidgetSettings {
  title: string;
}

/** What a create or an update asks for; an update sets only what it names. */
export interface WidgetInput {
  title?: string;
}

const NAMES = {
  create: 'CreateWidget',
  update: 'UpdateWidget',
  delete: 'DeleteWidget',
  created: 'WidgetCreated',
  updated: 'WidgetUpdated',
  deleted: 'WidgetDeleted',
} as const;

export type WidgetState = ResourceState<'widgetId', WidgetSettings>;
export type WidgetEvent = ResourceEvent<'widgetId', WidgetSettings, typeof NAMES>;
export type WidgetCommand = ResourceCommand<'widgetId', WidgetInput, typeof NAMES>;

export const TITLE_MAX = 100;

function checkedTitle(title: string | undefined): string {
  if (title === undefined) throw invalid('title is required');
  if (title.trim().length === 0 || title.length > TITLE_MAX) {
    throw invalid(`title must be 1 to ${TITLE_MAX} characters, not only spaces`);
  }
  return title;
}

/** A __label__ of an organization: created, changed field by field, deleted (`resourceDecider` gives the rest). */
export const widgetDecider = resourceDecider({
  what: '__Label__',
  idKey: 'widgetId',
  names: NAMES,
  create: (input: WidgetInput): WidgetSettings => ({ title: checkedTitle(input.title) }),
  update: (input: WidgetInput): Partial<WidgetSettings> =>
    input.title === undefined ? {} : { title: checkedTitle(input.title) },
});

export const widgetStream = (widgetId: string) => `__name__-${widgetId}`;
