import {
  ANY,
  convertToCommandError,
  InvalidTransactionError,
  NO_STREAM,
  START,
  WrongExpectedVersionError,
} from '@eventstore/db-client';
import {
  appendBytes,
  fromAll,
  judgeRetry,
  NO_POSITION,
  permanentFailure,
  refusal,
  settled,
  toEsdbExpected,
  toEsdbId,
  toEventData,
  toReadPosition,
  toRecorded,
  validPosition,
} from './esdb-mapping';
import {
  CheckpointBeyondHeadError,
  type NewEvent,
  type RecordedEvent,
  SubscriptionFailedError,
  WrongExpectedRevisionError,
} from './event-store.port';

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

  describe("judging an append by the stream's last events", () => {
    const ids = ['e1', 'e2'];

    it('is new when none of its ids is stored', () => {
      expect(judgeRetry(ids, [])).toEqual({ kind: 'new' });
      expect(judgeRetry(ids, [stored('e0', 0, 10)])).toEqual({ kind: 'new' });
    });

    it('was appended when every id is stored in order: it answers as the first append did', () => {
      const tail = [stored('e1', 4, 11), stored('e2', 5, 12), stored('later', 6, 20)];
      expect(judgeRetry(ids, tail)).toEqual({
        kind: 'appended',
        result: { nextRevision: 5, position: 12 },
      });
      // As read backwards, newest first.
      expect(judgeRetry(ids, [...tail].reverse())).toMatchObject({ kind: 'appended' });
      expect(judgeRetry(['e1'], tail)).toEqual({
        kind: 'appended',
        result: { nextRevision: 4, position: 11 },
      });
    });

    it('overlaps when only some ids are stored', () => {
      expect(judgeRetry(ids, [stored('e0', 0, 10), stored('e1', 1, 11)])).toEqual({
        kind: 'overlap',
        reason: '1 of 2 event ids are already stored',
      });
      expect(judgeRetry(['new', 'e2'], [stored('e2', 0, 12)])).toMatchObject({ kind: 'overlap' });
    });

    it('overlaps when every id is stored, but in another order', () => {
      expect(judgeRetry(ids, [stored('e2', 0, 12), stored('e1', 1, 13)])).toEqual({
        kind: 'overlap',
        reason: 'its event ids are already stored, in another order',
      });
    });

    it('settles a retry with the first result and refuses an overlap whole, as a plain error', () => {
      const result = { nextRevision: 5, position: 12 };
      expect(settled('s', { kind: 'appended', result })).toBe(result);
      const error = (() => {
        try {
          settled('s', { kind: 'overlap', reason: '1 of 2 event ids are already stored' });
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(WrongExpectedRevisionError);
      expect((error as Error).message).toBe('stream s: 1 of 2 event ids are already stored');
    });
  });

  describe('a refused append that is no retry', () => {
    it('is a conflict for a wrong expected revision, naming what the stream is at', () => {
      const wrong = (current: bigint | 'no_stream') =>
        new WrongExpectedVersionError(undefined, { streamName: 's', expected: 0n, current });
      expect(refusal('s', 0, wrong(3n))).toMatchObject({
        name: 'WrongExpectedRevisionError',
        stream: 's',
        expected: 0,
        actual: 3,
      });
      expect(refusal('s', 'no_stream', wrong(0n))).toBeInstanceOf(WrongExpectedRevisionError);
      expect(refusal('s', 0, wrong('no_stream'))).toMatchObject({ actual: 'no_stream' });
    });

    it('is an overlap when the server found only its first id where expected ("invalid transaction")', () => {
      const error = refusal('s', 0, new InvalidTransactionError(undefined, 'Invalid Transaction'));
      expect(error).not.toBeInstanceOf(WrongExpectedRevisionError);
      expect(error.message).toMatch(/^stream s: some of its event ids are already stored/);
    });
  });

  describe('an error of the subscription', () => {
    /** A gRPC error as the client receives it, turned into the client's error as its subscription does. */
    const grpc = (code: number, details: string, exception?: Record<string, string>) =>
      convertToCommandError(
        Object.assign(new Error(`${code} ${details}`), {
          code,
          details,
          metadata: { getMap: () => exception ?? {} },
        }),
      );

    it('is permanent when access is denied or the client is not authenticated', () => {
      for (const error of [
        grpc(7, 'Access Denied', { exception: 'access-denied' }),
        grpc(16, 'Unauthenticated'),
        grpc(7, 'Permission denied'),
      ]) {
        const failure = permanentFailure(error, 5);
        expect(failure).toBeInstanceOf(SubscriptionFailedError);
        expect(failure?.message).toMatch(/access denied or not authenticated/);
        expect(failure?.message).not.toMatch(/localhost|:\d+/);
        expect(failure?.cause).toBe(error);
      }
    });

    it('is permanent when the server has no event at the start position: a checkpoint of another log', () => {
      const failure = permanentFailure(grpc(3, 'Trying to read from an invalid position.'), 42);
      expect(failure).toBeInstanceOf(CheckpointBeyondHeadError);
      expect(failure).toMatchObject({ afterPosition: 42, head: undefined });
      expect(failure?.message).toMatch(/no event at position 42.*another log/);
    });

    it('is permanent when the check before subscribing found the start beyond the head', () => {
      const beyond = new CheckpointBeyondHeadError(42, 7);
      expect(permanentFailure(beyond, 42)).toBe(beyond);
    });

    it('is transient otherwise: not the leader, unavailable, cancelled, a deadline, another bad argument, anything', () => {
      const transient = [
        grpc(5, 'Leader info available', {
          exception: 'not-leader',
          'leader-endpoint-host': 'node2',
          'leader-endpoint-port': '2113',
        }),
        grpc(14, 'Server Is Not Ready'),
        grpc(1, 'Cancelled on server'),
        grpc(4, 'Deadline exceeded'),
        grpc(3, 'Maximum Append Size Exceeded'),
        new Error('subscription ended by the server'),
        undefined,
      ];
      expect(transient[0]?.constructor.name).toBe('NotLeaderError');
      for (const error of transient) expect(permanentFailure(error, 5)).toBeUndefined();
    });
  });
});
