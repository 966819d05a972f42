import type { Config } from '@app/platform/config/config';
import type { EventStore, RecordedEvent } from '@app/platform/eventstore/event-store.port';
import { Urls } from '@app/platform/http/urls';
import { recorded } from '@app/platform/projector/projection.testing';
import type { ReadStore } from '@app/platform/readstore/read-store.port';
import { type AuditEntry, auditEntry } from '../domain/audit-entry';
import type { AuditCatalog } from '../domain/audited-events';
import { REDACTED } from '../domain/redact';
import { AuditPresenter } from './audit.presenter';
import { AuditQueries } from './audit.queries';

const event = recorded(
  'SpaceDeleted',
  { spaceId: 's1', tokenHash: 'abc' },
  {
    stream: 'space-s1',
    revision: 3,
    metadata: { correlationId: 'req-1', causationId: '6a1d7f0e-3c2b-4e5f-8a9b-0c1d2e3f4a5b' },
  },
);

const stored = auditEntry(
  event,
  'space.deleted',
  'o1',
  { type: 'space', id: 's1', label: 'Handbook' },
  { type: 'user', id: 'u1', label: 'Ada' },
);

function queriesOver(entry: Partial<AuditEntry>, log: RecordedEvent[]) {
  const views = { get: async () => entry } as unknown as ReadStore;
  const events = {
    readStream: async (stream: string, from = 0, max = Number.POSITIVE_INFINITY) =>
      log.filter((e) => e.stream === stream && e.revision >= from).slice(0, max),
  } as unknown as EventStore;
  const presenter = new AuditPresenter(new Urls({ publicUrl: 'https://docs.test' } as Config));
  return new AuditQueries(views, events, {} as AuditCatalog, presenter);
}

describe('AuditQueries.get', () => {
  it('reads what caused an event and its payload from the log, secrets redacted', async () => {
    const details = await queriesOver(stored, [event]).get('o1', event.id);
    expect(details).toMatchObject({
      id: event.id,
      action: 'space.deleted',
      correlationId: 'req-1',
      causedByEventId: '6a1d7f0e-3c2b-4e5f-8a9b-0c1d2e3f4a5b',
      schemaVersion: 1,
      payload: { spaceId: 's1', tokenHash: REDACTED },
    });
  });

  it('serves an entry projected when entries held their details, without the log', async () => {
    const { stream: _stream, revision: _revision, ...rest } = stored;
    const legacy = {
      ...rest,
      correlationId: 'req-0',
      causedByEventId: null,
      schemaVersion: 1,
      payload: { a: 1 },
    };
    const details = await queriesOver(legacy, []).get('o1', event.id);
    expect(details).toMatchObject({ correlationId: 'req-0', payload: { a: 1 } });
    expect(details).not.toHaveProperty('causedByEventId');
  });

  it('refuses to present another event than the entry names', async () => {
    const other = { ...event, id: '11111111-8f43-4c43-9a4e-2d8f1c7b9a10' };
    await expect(queriesOver(stored, [other]).get('o1', event.id)).rejects.toThrow(/not at space-s1@3/);
  });
});
