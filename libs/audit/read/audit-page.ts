import { invalid } from '@app/platform/domain/decider';
import type { FindQuery } from '@app/platform/readstore/read-store.port';
import type { AuditEntry } from '../domain/audit-entry';

type Cursor = NonNullable<FindQuery['after']>;

/** The instants `toISOString` can write in the fixed-width form that sorts as text (years 0000 to 9999). */
const MIN_MS = Date.parse('0000-01-01T00:00:00.000Z');
const MAX_MS = Date.parse('9999-12-31T23:59:59.999Z');

const FRACTION = /^(.*T\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})$/;

/**
 * An RFC 3339 date-time in milliseconds. Digits below the millisecond are rounded toward the inside of
 * the window (`up` for `from`, `down` for `to`), since stored times have millisecond precision.
 */
export function instant(name: string, value: string, round: 'up' | 'down'): number {
  const match = FRACTION.exec(value.toUpperCase());
  const ms = match ? Date.parse(`${match[1]}${match[3]}`) : Number.NaN;
  if (!match || Number.isNaN(ms)) throw invalid(`${name}: must be an RFC 3339 date-time`);
  const fraction = match[2] ?? '';
  const extra = round === 'up' && /[1-9]/.test(fraction.slice(3)) ? 1 : 0;
  return ms + Number(fraction.slice(0, 3).padEnd(3, '0')) + extra;
}

const iso = (ms: number) => new Date(Math.min(Math.max(ms, MIN_MS), MAX_MS)).toISOString();

export interface TimeWindow {
  /** Earliest `occurredAt` included, in the stored form. */
  from?: string;
  /** A sort key above every entry at or before `to`: where a newest-first scan starts. */
  startBelow?: string;
}

/**
 * The read store offers equality filters and one keyset-ordered scan, no ranges. Entries are listed by
 * `sortKey` (time, then position) descending, so `to` becomes the scan's starting cursor and `from`
 * the point where the scan stops: a page never reads more than one entry past its end.
 */
export function timeWindow(from?: string, to?: string): TimeWindow {
  return {
    ...(from === undefined ? {} : { from: iso(instant('from', from, 'up')) }),
    // '~' sorts above the '|' and digits that follow the time in a sort key.
    ...(to === undefined ? {} : { startBelow: `${iso(instant('to', to, 'down'))}|~` }),
  };
}

/** Where the scan starts: the page token's cursor or the window's end, whichever is further down. */
export function startCursor(page: Cursor | undefined, window: TimeWindow): Cursor | undefined {
  const end = window.startBelow === undefined ? undefined : { value: window.startBelow, id: '' };
  if (!page) return end;
  if (typeof page.value !== 'string') throw invalid('page: not a valid page token');
  return end && end.value < page.value ? end : page;
}

/**
 * One page from a newest-first scan of up to `limit + 1` entries: the entries before the first one
 * older than `from`, and the cursor of the next page when at least one more entry is in the window.
 */
export function cutPage(
  scanned: AuditEntry[],
  limit: number,
  from: string | undefined,
): { items: AuditEntry[]; next?: Cursor } {
  const end = from === undefined ? -1 : scanned.findIndex((e) => e.occurredAt < from);
  const inWindow = end === -1 ? scanned : scanned.slice(0, end);
  const items = inWindow.slice(0, limit);
  const last = items.at(-1);
  return inWindow.length > limit && last ? { items, next: { value: last.sortKey, id: last.id } } : { items };
}
