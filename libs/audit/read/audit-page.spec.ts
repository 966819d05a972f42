import type { AuditEntry } from '../domain/audit-entry';
import { sortKeyOf } from '../domain/audit-entry';
import { cutPage, instant, startCursor, timeWindow } from './audit-page';

const entry = (occurredAt: string, position: number): AuditEntry =>
  ({ id: `org:${position}`, occurredAt, sortKey: sortKeyOf(occurredAt, position) }) as AuditEntry;

describe('instant', () => {
  it('reads UTC and offset date-times', () => {
    expect(instant('from', '2026-01-01T00:00:00Z', 'up')).toBe(Date.parse('2026-01-01T00:00:00.000Z'));
    expect(instant('from', '2026-01-01T02:00:00.250+02:00', 'up')).toBe(
      Date.parse('2026-01-01T00:00:00.250Z'),
    );
  });

  it('accepts lower-case separators', () => {
    expect(instant('to', '2026-01-01t00:00:00z', 'down')).toBe(Date.parse('2026-01-01T00:00:00Z'));
  });

  it('rounds digits below the millisecond toward the inside of the window', () => {
    expect(instant('from', '2026-01-01T00:00:00.0001Z', 'up')).toBe(Date.parse('2026-01-01T00:00:00.001Z'));
    expect(instant('to', '2026-01-01T00:00:00.0009Z', 'down')).toBe(Date.parse('2026-01-01T00:00:00.000Z'));
    expect(instant('from', '2026-01-01T00:00:00.1230000Z', 'up')).toBe(
      Date.parse('2026-01-01T00:00:00.123Z'),
    );
  });

  it.each(['2026-01-01', 'yesterday', '2026-02-30T25:00:00Z', '2026-01-01T00:00:60Z'])(
    'rejects %s naming the parameter',
    (value) => {
      expect(() => instant('from', value, 'up')).toThrow(/from: must be an RFC 3339 date-time/);
    },
  );
});

describe('timeWindow', () => {
  it('is open without bounds', () => {
    expect(timeWindow()).toEqual({});
  });

  it('starts below every key of the `to` millisecond and stops at `from`', () => {
    const window = timeWindow('2026-01-01T00:00:00Z', '2026-01-02T00:00:00+01:00');
    expect(window).toEqual({ from: '2026-01-01T00:00:00.000Z', startBelow: '2026-01-01T23:00:00.000Z|~' });
    const atTo = sortKeyOf('2026-01-01T23:00:00.000Z', 9_999_999);
    const afterTo = sortKeyOf('2026-01-01T23:00:00.001Z', 1);
    expect(atTo < (window.startBelow as string)).toBe(true);
    expect(afterTo > (window.startBelow as string)).toBe(true);
  });

  it('clamps bounds that an offset pushes out of the years 0000 to 9999', () => {
    expect(timeWindow('0000-01-01T00:00:00+01:00').from).toBe('0000-01-01T00:00:00.000Z');
    expect(timeWindow(undefined, '9999-12-31T23:00:00-02:00').startBelow).toBe('9999-12-31T23:59:59.999Z|~');
  });
});

describe('startCursor', () => {
  const window = { startBelow: '2026-01-02T00:00:00.000Z|~' };

  it('starts at the window end without a page token', () => {
    expect(startCursor(undefined, window)).toEqual({ value: window.startBelow, id: '' });
    expect(startCursor(undefined, {})).toBeUndefined();
  });

  it('keeps the page cursor when it is below the window end', () => {
    const page = { value: sortKeyOf('2026-01-01T00:00:00.000Z', 3), id: 'org:3' };
    expect(startCursor(page, window)).toEqual(page);
  });

  it('never starts above the window end, even with a token from a wider window', () => {
    const page = { value: sortKeyOf('2026-01-05T00:00:00.000Z', 3), id: 'org:3' };
    expect(startCursor(page, window)).toEqual({ value: window.startBelow, id: '' });
  });

  it('rejects a token whose cursor is not a sort key', () => {
    expect(() => startCursor({ value: 3, id: 'x' }, {})).toThrow(/page/);
  });
});

describe('cutPage', () => {
  const scanned = [
    entry('2026-01-03T00:00:00.000Z', 5),
    entry('2026-01-02T00:00:00.000Z', 4),
    entry('2026-01-02T00:00:00.000Z', 3),
    entry('2026-01-01T00:00:00.000Z', 2),
  ];

  it('returns a full page and the cursor of its last entry when more follow', () => {
    expect(cutPage(scanned.slice(0, 3), 2, undefined)).toEqual({
      items: scanned.slice(0, 2),
      next: { value: scanned[1].sortKey, id: scanned[1].id },
    });
  });

  it('has no next page when the scan found no extra entry', () => {
    expect(cutPage(scanned.slice(0, 2), 2, undefined)).toEqual({ items: scanned.slice(0, 2) });
  });

  it('stops at the first entry older than `from`, including it when equal', () => {
    expect(cutPage(scanned, 3, '2026-01-02T00:00:00.000Z')).toEqual({ items: scanned.slice(0, 3) });
    expect(cutPage(scanned, 2, '2026-01-02T00:00:00.000Z')).toEqual({
      items: scanned.slice(0, 2),
      next: { value: scanned[1].sortKey, id: scanned[1].id },
    });
  });

  it('has no next page when the extra entry is outside the window', () => {
    expect(cutPage(scanned.slice(0, 3), 2, '2026-01-02T00:00:00.001Z')).toEqual({
      items: scanned.slice(0, 1),
    });
  });
});
