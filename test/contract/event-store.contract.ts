import { randomUUID } from 'node:crypto';
import {
  AppendTooLargeError,
  CheckpointBeyondHeadError,
  type EventStore,
  MAX_APPEND_BYTES,
  type NewEvent,
  type RecordedEvent,
  type Subscription,
  WrongExpectedRevisionError,
} from '@app/platform/eventstore';

export interface EventStoreTarget {
  /** Opens a store on this test's storage; a later call sees what earlier ones wrote. */
  open(): EventStore;
  /** Every test starts from an empty log, so assertions about the whole log can be exact. */
  isolated: boolean;
  /** close() commits appends that were issued but not yet acknowledged. */
  flushesOnClose: boolean;
  /** `appendInOrder` is all or nothing (one transaction), not only in order. */
  atomicAcrossStreams: boolean;
  dispose?(): Promise<void>;
}

/** The behaviour every EventStore adapter must have. Streams are unique per test, so a shared server works. */
export function eventStoreContract(createTarget: () => EventStoreTarget): void {
  let target: EventStoreTarget;
  let store: EventStore;
  const opened: EventStore[] = [];
  const subscriptions: Subscription[] = [];

  const open = (): EventStore => {
    const opening = target.open();
    opened.push(opening);
    return opening;
  };

  /** Subscribes and records what arrives; `only` keeps the events of the test's own streams. */
  const follow = (on: EventStore, after: number, only: (event: RecordedEvent) => boolean = () => true) => {
    const received: RecordedEvent[] = [];
    const batches: RecordedEvent[][] = [];
    const subscription = on.subscribeAll(after, async (batch) => {
      batches.push(batch);
      received.push(...batch.filter(only));
    });
    subscriptions.push(subscription);
    return { received, batches, subscription };
  };

  beforeEach(() => {
    target = createTarget();
    store = open();
  });

  afterEach(async () => {
    await Promise.all(subscriptions.splice(0).map((subscription) => subscription.close()));
    await Promise.all(opened.splice(0).map((each) => each.close()));
    await target.dispose?.();
  });

  it('appends to a new stream with no_stream and reads the events back as written', async () => {
    const stream = streamName();
    const events = [newEvent('Created', { title: 'a' }), newEvent('Renamed', { title: 'b', tags: ['x'] })];

    const result = await store.append(stream, events, 'no_stream');
    const read = await store.readStream(stream);

    expect(result.nextRevision).toBe(1);
    expect(read.map(({ id, type, data, metadata }) => ({ id, type, data, metadata }))).toEqual(events);
    expect(read.map((event) => [event.stream, event.revision])).toEqual([
      [stream, 0],
      [stream, 1],
    ]);
    expect(read[0].position).toBeGreaterThan(0);
    expect(read[1].position).toBeGreaterThan(read[0].position);
    expect(result.position).toBe(read[1].position);
  });

  it('reads large data back exactly as written, from the stream and from the log', async () => {
    const stream = streamName();
    const objects = Object.fromEntries(
      Array.from({ length: 40 }, (_, i) => [
        `k${i}`,
        `{"text":"ünïcødé ${i} ✓ ${'lorem ipsum '.repeat(i)}"}`,
      ]),
    );
    const event = newEvent('Stored', { objects });
    const { position } = await store.append(stream, [event], 'no_stream');
    expect((await store.readStream(stream))[0].data).toEqual({ objects });
    const [read] = await store.readAll(position - 1, 1);
    expect([read.id, read.data]).toEqual([event.id, { objects }]);
  });

  it('rejects no_stream on an existing stream and writes nothing', async () => {
    const stream = streamName();
    await store.append(stream, [newEvent()], 'no_stream');

    const error = await store.append(stream, [newEvent()], 'no_stream').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(WrongExpectedRevisionError);
    expect(error).toMatchObject({ stream, expected: 'no_stream', actual: 0 });
    expect(await store.readStream(stream)).toHaveLength(1);
  });

  it('accepts the exact current revision and rejects a stale one', async () => {
    const stream = streamName();
    await store.append(stream, [newEvent(), newEvent()], 'no_stream');

    const next = await store.append(stream, [newEvent()], 1);
    const stale = await store.append(stream, [newEvent()], 1).catch((e: unknown) => e);
    const missing = await store.append(streamName(), [newEvent()], 0).catch((e: unknown) => e);

    expect(next.nextRevision).toBe(2);
    expect(stale).toBeInstanceOf(WrongExpectedRevisionError);
    expect(stale).toMatchObject({ expected: 1, actual: 2 });
    expect(missing).toMatchObject({ name: 'WrongExpectedRevisionError', actual: 'no_stream' });
    expect((await store.readStream(stream)).map((event) => event.revision)).toEqual([0, 1, 2]);
  });

  it("appends with 'any' whatever the state of the stream", async () => {
    const stream = streamName();

    const first = await store.append(stream, [newEvent()], 'any');
    const second = await store.append(stream, [newEvent(), newEvent()], 'any');

    expect(first.nextRevision).toBe(0);
    expect(second.nextRevision).toBe(2);
    expect(second.position).toBeGreaterThan(first.position);
    expect(await store.readStream(stream)).toHaveLength(3);
  });

  it('treats a re-append of stored event ids as a no-op that returns the original result', async () => {
    const stream = streamName();
    // Ids need not be UUIDs.
    const events = [newEvent('Created', {}, `order-${randomUUID()}:created`), newEvent()];
    const original = await store.append(stream, events, 'no_stream');
    await store.append(stream, [newEvent()], 1);

    const sameExpectation = await store.append(stream, events, 'no_stream');
    const anyExpectation = await store.append(stream, events, 'any');
    const staleExpectation = await store.append(stream, events, 0);

    expect(sameExpectation).toEqual(original);
    expect(anyExpectation).toEqual(original);
    expect(staleExpectation).toEqual(original);
    const read = await store.readStream(stream);
    expect(read.map((event) => event.id)).toEqual([events[0].id, events[1].id, read[2].id]);
  });

  it('recognises a retry after a lost acknowledgement: the same expected revision, after later appends', async () => {
    const stream = streamName();
    await store.append(stream, [newEvent(), newEvent()], 'no_stream');
    const events = [newEvent(), newEvent()];
    const original = await store.append(stream, events, 1);
    await store.append(stream, [newEvent()], 3);

    const retry = await store.append(stream, events, 1);

    expect(original.nextRevision).toBe(3);
    expect(retry).toEqual(original);
    const read = await store.readStream(stream);
    expect(read).toHaveLength(5);
    expect(read.slice(2, 4).map((event) => event.id)).toEqual(events.map((event) => event.id));
  });

  it("recognises a retry with 'any', after later appends, and answers the first append's result", async () => {
    const stream = streamName();
    await store.append(stream, [newEvent()], 'any');
    const events = [newEvent(), newEvent()];
    const original = await store.append(stream, events, 'any');
    await store.append(stream, [newEvent(), newEvent()], 'any');

    const retry = await store.append(stream, events, 'any');
    const lastOnly = await store.append(stream, [events[1]], 'any');

    expect(retry).toEqual(original);
    expect(lastOnly).toEqual(original);
    expect(await store.readStream(stream)).toHaveLength(5);
  });

  it('rejects an append whose event ids are only partly stored, without writing, whatever it expects', async () => {
    const stream = streamName();
    const events = [newEvent(), newEvent()];
    await store.append(stream, events, 'no_stream');

    // Not the current revision (1): a caller that read the stream there has seen its ids (see EventStore.append).
    for (const expected of ['no_stream', 'any', 0] as const) {
      const partial = [events[1], newEvent()];
      const error = await store.append(stream, partial, expected).catch((e: unknown) => e);

      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(WrongExpectedRevisionError);
    }
    expect((await store.readStream(stream)).map((event) => event.id)).toEqual(
      events.map((event) => event.id),
    );
  });

  it('rejects an append carrying the same event id twice, writing nothing', async () => {
    const stream = streamName();
    const event = newEvent();
    await expect(store.append(stream, [event, event], 'no_stream')).rejects.toThrow(/same event id twice/);
    expect(await store.readStream(stream)).toEqual([]);
  });

  it('rejects an append over MAX_APPEND_BYTES as too large (413), writing nothing; one just under fits', async () => {
    const stream = streamName();
    // Two events, together over the limit by their data alone.
    const half = 'x'.repeat(MAX_APPEND_BYTES / 2);
    const error = await store
      .append(stream, [newEvent('Big', { text: half }), newEvent('Big', { text: half })], 'no_stream')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppendTooLargeError);
    expect((error as AppendTooLargeError).statusCode).toBe(413);
    expect(await store.readStream(stream)).toEqual([]);
    await store.append(stream, [newEvent('Big', { text: 'x'.repeat(MAX_APPEND_BYTES - 4096) })], 'no_stream');
    expect(await store.readStream(stream)).toHaveLength(1);
  });

  it('reads a stream from a revision, and reads nothing from a missing stream', async () => {
    const stream = streamName();
    const events = [newEvent(), newEvent(), newEvent(), newEvent(), newEvent()];
    await store.append(stream, events, 'no_stream');

    const fromTwo = await store.readStream(stream, 2);

    expect(fromTwo.map((event) => event.revision)).toEqual([2, 3, 4]);
    expect(fromTwo.map((event) => event.id)).toEqual(events.slice(2).map((event) => event.id));
    expect(await store.readStream(stream, 5)).toEqual([]);
    expect(await store.readStream(streamName())).toEqual([]);
  });

  it('reads at most maxCount events of a stream from a revision', async () => {
    const stream = streamName();
    const events = [newEvent(), newEvent(), newEvent(), newEvent()];
    await store.append(stream, events, 'no_stream');

    const [one, ...rest] = await store.readStream(stream, 2, 1);

    expect(rest).toEqual([]);
    expect(one.id).toBe(events[2].id);
    expect(one.revision).toBe(2);
    expect((await store.readStream(stream, 1, 2)).map((event) => event.revision)).toEqual([1, 2]);
    expect(await store.readStream(stream, 3, 10)).toHaveLength(1);
    expect(await store.readStream(streamName(), 0, 1)).toEqual([]);
  });

  it('reads the log in global order after an exclusive position, at most maxCount events', async () => {
    const before = await store.headPosition();
    const [a, b] = [streamName(), streamName()];
    await store.append(a, [newEvent()], 'no_stream');
    await store.append(b, [newEvent(), newEvent()], 'no_stream');
    await store.append(a, [newEvent()], 0);
    const mine = (events: RecordedEvent[]) =>
      events.filter((event) => event.stream === a || event.stream === b);

    const all = mine(await store.readAll(before, 1000));
    const afterFirst = mine(await store.readAll(all[0].position, 1000));
    const two = await store.readAll(before, 2);

    expect(all.map((event) => [event.stream, event.revision])).toEqual([
      [a, 0],
      [b, 0],
      [b, 1],
      [a, 1],
    ]);
    expectStrictlyIncreasing(all.map((event) => event.position));
    expect(afterFirst).toEqual(all.slice(1));
    expect(two).toHaveLength(2);
    expect(two[0].position).toBeGreaterThan(before);
    expectStrictlyIncreasing(two.map((event) => event.position));
    expect(await store.readAll(await store.headPosition(), 10)).toEqual([]);
  });

  it('gives strictly increasing positions to successive appends', async () => {
    const results = [];
    for (let i = 0; i < 5; i++)
      results.push(await store.append(streamName(), [newEvent(), newEvent()], 'no_stream'));

    expectStrictlyIncreasing(results.map((result) => result.position));
  });

  it('reports the position of the last event as head', async () => {
    const empty = await store.headPosition();
    if (target.isolated) expect(empty).toBe(0);

    const first = await store.append(streamName(), [newEvent()], 'no_stream');
    const second = await store.append(streamName(), [newEvent(), newEvent()], 'no_stream');
    const head = await store.headPosition();

    expect(second.position).toBeGreaterThan(first.position);
    if (target.isolated) expect(head).toBe(second.position);
    else expect(head).toBeGreaterThanOrEqual(second.position);
  });

  it('subscribes: catches up, then delivers live appends in order without duplicates', async () => {
    const stream = streamName();
    const start = await store.headPosition();
    await store.append(stream, [newEvent(), newEvent(), newEvent()], 'no_stream');

    const { received, batches } = follow(store, start, (event) => event.stream === stream);
    await waitFor(() => received.length === 3);
    await store.append(stream, [newEvent()], 2);
    await store.append(stream, [newEvent()], 3);
    await waitFor(() => received.length === 5);
    await sleep(100);

    expect(received.map((event) => event.revision)).toEqual([0, 1, 2, 3, 4]);
    const positions = batches.flat().map((event) => event.position);
    expect(positions[0]).toBeGreaterThan(start);
    expectStrictlyIncreasing(positions);
  });

  it('with types, delivers every event of those types in order and reads through the others', async () => {
    const stream = streamName();
    const start = await store.headPosition();
    const types = ['Wanted', 'AlsoWanted'];
    await store.append(
      stream,
      [newEvent('Other'), newEvent('Wanted'), newEvent('Other'), newEvent('AlsoWanted'), newEvent('Other')],
      'no_stream',
    );
    const head = await store.headPosition();
    const received: RecordedEvent[] = [];
    let through = start;
    const subscription = store.subscribeAll(
      start,
      async (batch, reached) => {
        received.push(...batch.filter((event) => event.stream === stream && types.includes(event.type)));
        through = Math.max(through, reached ?? batch.at(-1)?.position ?? through);
      },
      { types },
    );
    subscriptions.push(subscription);
    await waitFor(() => received.length === 2 && through >= head);
    expect(received.map((event) => [event.type, event.revision])).toEqual([
      ['Wanted', 1],
      ['AlsoWanted', 3],
    ]);
  });

  it('resumes a subscription exactly after its checkpoint', async () => {
    const stream = streamName();
    await store.append(stream, [newEvent(), newEvent(), newEvent(), newEvent()], 'no_stream');
    const checkpoint = (await store.readStream(stream))[1].position;

    const { received, batches } = follow(store, checkpoint, (event) => event.stream === stream);
    await waitFor(() => received.length >= 2);
    await sleep(100);

    expect(batches[0][0].position).toBeGreaterThan(checkpoint);
    expect(received.map((event) => event.revision)).toEqual([2, 3]);
  });

  it('never runs a handler twice at once and keeps log order under concurrent appends', async () => {
    const stream = streamName();
    const start = await store.headPosition();
    let running = 0;
    let overlapped = false;
    const received: RecordedEvent[] = [];
    subscriptions.push(
      store.subscribeAll(start, async (batch) => {
        overlapped ||= running > 0;
        running += 1;
        await sleep(5);
        received.push(...batch.filter((event) => event.stream === stream));
        running -= 1;
      }),
    );

    const results = await Promise.all(
      Array.from({ length: 50 }, () => store.append(stream, [newEvent()], 'any')),
    );
    await waitFor(() => received.length === 50);

    expect(overlapped).toBe(false);
    expect(received.map((event) => event.revision)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(received.map((event) => event.position)).toEqual(
      results.map((r) => r.position).sort((x, y) => x - y),
    );
  });

  it('retries a batch whose handler failed instead of skipping it', async () => {
    const stream = streamName();
    const start = await store.headPosition();
    await store.append(stream, [newEvent(), newEvent()], 'no_stream');
    const attempts: RecordedEvent[][] = [];
    const received: RecordedEvent[] = [];
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      subscriptions.push(
        store.subscribeAll(start, async (batch) => {
          const mine = batch.filter((event) => event.stream === stream);
          attempts.push(mine);
          if (attempts.length === 1) throw new Error('projection failed');
          received.push(...mine);
        }),
      );
      await waitFor(() => received.length >= 2);
    } finally {
      stderr.mockRestore();
    }

    expect(attempts.length).toBeGreaterThanOrEqual(2);
    expect(attempts[1].map((event) => event.id)).toEqual(attempts[0].map((event) => event.id));
    expect(received.map((event) => event.revision)).toEqual([0, 1]);
  });

  it('stops a subscription asked to start beyond the head (a checkpoint kept for another log), for good', async () => {
    const head = await store.headPosition();
    const healthy = follow(store, head);
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const beyond = follow(store, head + 1_000_000_000);
      await waitFor(() => beyond.subscription.failure() !== undefined);
      const failure = beyond.subscription.failure();
      expect(failure).toBeInstanceOf(CheckpointBeyondHeadError);
      expect(failure).toMatchObject({ afterPosition: head + 1_000_000_000 });
      expect((failure as CheckpointBeyondHeadError).head).toBeGreaterThanOrEqual(head);
      expect(failure?.message).toMatch(/another log/);

      const stream = streamName();
      await store.append(stream, [newEvent()], 'no_stream');
      await waitFor(() => healthy.received.some((event) => event.stream === stream));
      await sleep(100);
      expect(beyond.batches).toEqual([]);
      expect(healthy.subscription.failure()).toBeUndefined();
    } finally {
      stderr.mockRestore();
    }
  });

  it('stops delivering once a subscription is closed', async () => {
    const stream = streamName();
    const start = await store.headPosition();
    const { received, subscription } = follow(store, start, (event) => event.stream === stream);
    await store.append(stream, [newEvent()], 'no_stream');
    await waitFor(() => received.length === 1);

    await subscription.close();
    await store.append(stream, [newEvent()], 0);
    await sleep(300);

    expect(received).toHaveLength(1);
  });

  it('lets exactly one of several concurrent appends with the same expected revision win', async () => {
    const stream = streamName();
    await store.append(stream, [newEvent()], 'no_stream');

    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, () => store.append(stream, [newEvent()], 0)),
    );

    const won = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    const lost = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason] : []));
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(9);
    for (const reason of lost) expect(reason).toBeInstanceOf(WrongExpectedRevisionError);
    expect(await store.readStream(stream)).toHaveLength(2);
  });

  it('settles each of several appends issued together on its own', async () => {
    const [ok1, conflicting, ok2] = [streamName(), streamName(), streamName()];
    await store.append(conflicting, [newEvent()], 'no_stream');

    const outcomes = await Promise.allSettled([
      store.append(ok1, [newEvent()], 'no_stream'),
      store.append(conflicting, [newEvent()], 'no_stream'),
      store.append(ok2, [newEvent()], 'no_stream'),
    ]);

    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await store.readStream(ok1)).toHaveLength(1);
    expect(await store.readStream(conflicting)).toHaveLength(1);
    expect(await store.readStream(ok2)).toHaveLength(1);
  });

  it('appends to several streams in order, answering each result in order', async () => {
    const [objects, change] = [streamName(), streamName()];
    await store.append(change, [newEvent()], 'no_stream');
    const stored = [newEvent('Stored', { n: 1 }), newEvent('Stored', { n: 2 })];
    const made = newEvent('Changed');

    const [first, second] = await store.appendInOrder([
      { stream: objects, events: stored, expected: 'any' },
      { stream: change, events: [made], expected: 0 },
    ]);

    const [readObjects, readChange] = [await store.readStream(objects), await store.readStream(change)];
    expect(readObjects.map((event) => event.id)).toEqual(stored.map((event) => event.id));
    expect(first).toEqual({ nextRevision: 1, position: readObjects[1].position });
    expect(second).toEqual({ nextRevision: 1, position: readChange[1].position });
    expect(readChange[1].id).toBe(made.id);
    expect(second.position).toBeGreaterThan(first.position);
  });

  it('leaves the appends after a failing one of appendInOrder unwritten; the ones before, where it is atomic', async () => {
    const [before, failing, after] = [streamName(), streamName(), streamName()];
    await store.append(failing, [newEvent()], 'no_stream');

    const appending = store.appendInOrder([
      { stream: before, events: [newEvent()], expected: 'no_stream' },
      { stream: failing, events: [newEvent()], expected: 'no_stream' },
      { stream: after, events: [newEvent()], expected: 'any' },
    ]);

    await expect(appending).rejects.toBeInstanceOf(WrongExpectedRevisionError);
    expect(await store.readStream(after)).toEqual([]);
    expect(await store.readStream(failing)).toHaveLength(1);
    expect(await store.readStream(before)).toHaveLength(target.atomicAcrossStreams ? 0 : 1);
  });

  it('settles an appendInOrder on its own among appends issued with it', async () => {
    const [ok, taken, other, alone] = [streamName(), streamName(), streamName(), streamName()];
    await store.append(taken, [newEvent()], 'no_stream');

    const outcomes = await Promise.allSettled([
      store.append(ok, [newEvent()], 'no_stream'),
      store.appendInOrder([
        { stream: other, events: [newEvent()], expected: 'any' },
        { stream: taken, events: [newEvent()], expected: 'no_stream' },
      ]),
      store.appendInOrder([{ stream: alone, events: [newEvent()], expected: 'no_stream' }]),
    ]);

    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await store.readStream(ok)).toHaveLength(1);
    expect(await store.readStream(alone)).toHaveLength(1);
    expect(await store.readStream(taken)).toHaveLength(1);
    expect(await store.readStream(other)).toHaveLength(target.atomicAcrossStreams ? 0 : 1);
  });

  it('commits 500 concurrent appends to different streams, all readable', async () => {
    const before = await store.headPosition();
    const appends = Array.from({ length: 500 }, () => ({ stream: streamName(), event: newEvent() }));

    const results = await Promise.all(appends.map((a) => store.append(a.stream, [a.event], 'no_stream')));

    expect(new Set(results.map((result) => result.position)).size).toBe(500);
    for (const result of results) expect(result.nextRevision).toBe(0);
    const streams = new Set(appends.map((a) => a.stream));
    const logged = (await store.readAll(before, 100_000)).filter((event) => streams.has(event.stream));
    expect(logged.map((event) => event.id).sort()).toEqual(appends.map((a) => a.event.id).sort());
    const [sample] = await store.readStream(appends[321].stream);
    expect(sample.id).toBe(appends[321].event.id);
  });

  it('keeps the data across close() and reopening', async () => {
    const stream = streamName();
    const result = await store.append(stream, [newEvent(), newEvent()], 'no_stream');
    const unacknowledged = target.flushesOnClose ? store.append(stream, [newEvent()], 1) : undefined;

    await store.close();
    const reopened = open();

    if (unacknowledged) await expect(unacknowledged).resolves.toMatchObject({ nextRevision: 2 });
    const read = await reopened.readStream(stream);
    expect(read).toHaveLength(unacknowledged ? 3 : 2);
    expect(read[1].position).toBe(result.position);
    expect(await reopened.append(stream, [newEvent()], read.length - 1)).toMatchObject({
      nextRevision: read.length,
    });
  });
}

export function streamName(): string {
  return `contract-${randomUUID()}`;
}

export function newEvent(
  type = 'ThingHappened',
  data: unknown = { n: Math.random() },
  id = randomUUID(),
): NewEvent {
  return {
    id,
    type,
    data,
    metadata: {
      schemaVersion: 1,
      occurredAt: new Date().toISOString(),
      actor: { userId: 'user-1', source: 'api' },
      correlationId: randomUUID(),
      causationId: null,
    },
  };
}

export async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs}ms`);
    await sleep(10);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function expectStrictlyIncreasing(values: number[]): void {
  for (let i = 1; i < values.length; i++) expect(values[i]).toBeGreaterThan(values[i - 1]);
}
