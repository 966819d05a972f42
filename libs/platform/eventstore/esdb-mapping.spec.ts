import { ANY, NO_STREAM, START } from '@eventstore/db-client';
import {
  appendBytes,
  fromAll,
  NO_POSITION,
  reappended,
  toEsdbExpected,
  toEsdbId,
  toEventData,
  toReadPosition,
  toRecorded,
  validPosition,
} from './esdb-mapping';
import { type NewEvent, type RecordedEvent, WrongExpectedRevisionError } from './event-store.port';

const metadata = {
  schemaVersion: 1,
  occurredAt: '2026-01-01T00:00:00.000Z',
  actor: { userId: 'u1', source: 'api' as const },
  correlationId: 'c1',
  causationId: null,
};
const event = (id: string): NewEvent => ({ id, type: 'SpaceCreated', data: { title: 'Guide' }, metadata });
const stored = (id: string, revision: number, position: number): RecordedEvent => ({
  ...event(id),
  stream: 's',
  revision,
  position,
});

describe('EventStoreDB mapping', () => {
  it('maps expected revisions: any, no stream, an exact revision; refuses others', () => {
    expect(toEsdbExpected('any')).toBe(ANY);
    expect(toEsdbExpected('no_stream')).toBe(NO_STREAM);
    expect(toEsdbExpected(7)).toBe(7n);
    expect(() => toEsdbExpected(-1)).toThrow(/invalid expected revision/);
    expect(() => toEsdbExpected(1.5)).toThrow(/invalid expected revision/);
  });

  it('keeps UUID ids (lower case) and maps other ids to a stable name-based UUID', () => {
    expect(toEsdbId('0A1B2C3D-4E5F-4A6B-8C7D-9E0F1A2B3C4D')).toBe('0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d');
    const mapped = toEsdbId('purge-abc');
    expect(mapped).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(toEsdbId('purge-abc')).toBe(mapped);
    expect(toEsdbId('purge-abd')).not.toBe(mapped);
  });

  it('round-trips an event: the original id and metadata come back from the envelope', () => {
    const data = toEventData(event('not-a-uuid'));
    expect(data.metadata).toMatchObject({ originalId: 'not-a-uuid', $correlationId: 'c1' });
    const recorded = toRecorded(
      {
        streamId: 's',
        id: data.id,
        revision: 3n,
        type: data.type,
        data: data.data,
        metadata: data.metadata,
        position: { commit: 42n, prepare: 42n },
      },
      undefined,
    );
    expect(recorded).toEqual({ ...event('not-a-uuid'), stream: 's', revision: 3, position: 42 });
  });

  it('reads positions: none for the "no position" marker or a negative one; a record without one is an error', () => {
    expect(validPosition(5n)).toBe(5);
    expect(validPosition(undefined)).toBeUndefined();
    expect(validPosition(NO_POSITION)).toBeUndefined();
    expect(validPosition(-1n)).toBeUndefined();
    const record = { streamId: 's', id: 'i', revision: 0n, type: 'T', data: {}, metadata: {} };
    expect(() => toRecorded(record, undefined)).toThrow(/no log position/);
    expect(toRecorded(record, 9n).position).toBe(9);
  });

  it('reads from a position at that very event (one record per commit), from the start at 0', () => {
    expect(toReadPosition(0)).toBe(START);
    expect(toReadPosition(12)).toEqual({ commit: 12n, prepare: 12n });
  });

  it('leaves system events and unresolved links out of $all', () => {
    const system = {
      event: { streamId: '$stats', id: 'x', revision: 0n, type: '$statsCollected', data: {}, metadata: {} },
    };
    expect(fromAll(system as never)).toBeUndefined();
    expect(fromAll({ event: undefined } as never)).toBeUndefined();
  });

  it('weighs an append as its data and metadata in JSON', () => {
    const data = [toEventData(event('a'))];
    expect(appendBytes(data)).toBe(
      JSON.stringify(data[0].data).length + JSON.stringify(data[0].metadata).length,
    );
  });

  describe('an append refused for its expected revision', () => {
    const events = [event('e1'), event('e2')];

    it('was a retry when every id is stored: it answers as the first append did', () => {
      const log = [stored('e0', 0, 10), stored('e1', 1, 11), stored('e2', 2, 12)];
      expect(reappended('s', events, log, 0, 2)).toEqual({ nextRevision: 2, position: 12 });
    });

    it('is refused whole when only some ids are stored', () => {
      expect(() => reappended('s', events, [stored('e1', 0, 11)], 'no_stream', 0)).toThrow(
        /1 of 2 event ids are already stored/,
      );
    });

    it('is a conflict when none is stored, naming what the stream is at', () => {
      const error = (() => {
        try {
          reappended('s', events, [stored('other', 0, 3)], 'no_stream', 0);
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(WrongExpectedRevisionError);
      expect(error).toMatchObject({ stream: 's', expected: 'no_stream', actual: 0 });
    });
  });
});
