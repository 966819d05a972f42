import type { RecordedEvent } from '@app/platform/eventstore/event-store.port';
import { auditDetails, auditEntry, auditSource, entryId, sortKeyOf } from './audit-entry';
import { REDACTED } from './redact';

const event = (overrides: Partial<RecordedEvent['metadata']> = {}, data: unknown = { spaceId: 's1' }) =>
  ({
    id: '0b6f6c1e-8f43-4c43-9a4e-2d8f1c7b9a10',
    type: 'SpaceDeleted',
    data,
    stream: 'space-s1',
    revision: 1,
    position: 42,
    metadata: {
      schemaVersion: 1,
      occurredAt: '2026-01-02T03:04:05.678Z',
      actor: { userId: 'u1', source: 'api' },
      correlationId: 'req-1',
      causationId: null,
      ...overrides,
    },
  }) as RecordedEvent;

const target = { type: 'space' as const, id: 's1', label: 'Handbook' };
const actor = { type: 'user' as const, id: 'u1', label: 'Ada' };

describe('auditSource', () => {
  it('keeps api and script, and calls the product own scheduled work a workflow', () => {
    expect(auditSource('api')).toBe('api');
    expect(auditSource('script')).toBe('script');
    expect(auditSource('system')).toBe('workflow');
  });
});

describe('auditEntry', () => {
  it('records the event in one organization, keyed by organization first', () => {
    expect(auditEntry(event(), 'space.deleted', 'org1', target, actor)).toEqual({
      id: entryId('org1', '0b6f6c1e-8f43-4c43-9a4e-2d8f1c7b9a10'),
      organization: 'org1',
      eventId: '0b6f6c1e-8f43-4c43-9a4e-2d8f1c7b9a10',
      occurredAt: '2026-01-02T03:04:05.678Z',
      sortKey: '2026-01-02T03:04:05.678Z|0000000000000042',
      action: 'space.deleted',
      actorType: 'user',
      actorId: 'u1',
      actorLabel: 'Ada',
      source: 'api',
      targetType: 'space',
      targetId: 's1',
      targetLabel: 'Handbook',
      stream: 'space-s1',
      revision: 1,
    });
  });

  it('stores times in UTC with milliseconds so that text order is time order', () => {
    const entry = auditEntry(
      event({ occurredAt: '2026-01-02T05:04:05+02:00' }),
      'space.deleted',
      'o',
      target,
      actor,
    );
    expect(entry.occurredAt).toBe('2026-01-02T03:04:05.000Z');
  });
});

describe('auditDetails', () => {
  it('gives what caused the event and its payload', () => {
    expect(auditDetails(event())).toEqual({
      correlationId: 'req-1',
      causedByEventId: null,
      schemaVersion: 1,
      payload: { spaceId: 's1' },
    });
  });

  it('names the causing event only when the causation is an event id', () => {
    const cause = '6a1d7f0e-3c2b-4e5f-8a9b-0c1d2e3f4a5b';
    expect(auditDetails(event({ causationId: cause })).causedByEventId).toBe(cause);
    expect(auditDetails(event({ causationId: 'request-7' })).causedByEventId).toBeNull();
  });

  it('redacts secrets in the payload', () => {
    expect(auditDetails(event({}, { tokenHash: 'abc', tokenId: 't' })).payload).toEqual({
      tokenHash: REDACTED,
      tokenId: 't',
    });
  });
});

describe('sortKeyOf', () => {
  it('orders by time, then by log position within a millisecond', () => {
    const keys = [
      sortKeyOf('2026-01-01T00:00:00.001Z', 5),
      sortKeyOf('2026-01-01T00:00:00.000Z', 10),
      sortKeyOf('2026-01-01T00:00:00.000Z', 9),
    ];
    expect([...keys].sort()).toEqual([keys[2], keys[1], keys[0]]);
  });
});
