import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../clock/clock';
import { conflict, type Decider, type DomainEvent } from '../domain/decider';
import { newEventId } from '../eventstore/event-id';
import type { ExpectedRevision } from '../eventstore/event-store.port';
import { SqliteEventStore } from '../eventstore/sqlite-event-store';
import { createObservability, type Observability } from '../observability/observability';
import type { CommandContext } from './command-context';
import {
  CommandRunner,
  type ComputedCommand,
  MAX_ATTEMPTS,
  PreconditionFailedError,
  type Prerequisite,
} from './command-runner';

/** A counter: `Set` records a new value unless it is the current one; `Open` refuses once closed. */
type Command = { type: 'Set'; value: number } | { type: 'Open' } | { type: 'Close' };
type Event = DomainEvent<'ValueSet', { value: number }> | DomainEvent<'Closed', Record<string, never>>;
type State = { value: number; closed: boolean };

const counter: Decider<Command, Event, State> = {
  initialState: { value: 0, closed: false },
  evolve: (state, event) =>
    event.type === 'ValueSet' ? { ...state, value: event.data.value } : { ...state, closed: true },
  decide: (command, state) => {
    if (command.type === 'Open') {
      if (state.closed) throw conflict('closed');
      return [];
    }
    if (command.type === 'Close') return state.closed ? [] : [{ type: 'Closed', data: {} }];
    return command.value === state.value ? [] : [{ type: 'ValueSet', data: { value: command.value } }];
  },
};

const ctx: CommandContext = { source: 'api', correlationId: 'c', causationId: null };

describe('CommandRunner', () => {
  let dir: string;
  let store: SqliteEventStore;
  let runner: CommandRunner;
  let reads: number;

  /** Another process writing the stream behind this runner's back. */
  const appendElsewhere = (event: Event, expected: ExpectedRevision) =>
    store.append(
      'counter-1',
      [{ id: newEventId(), type: event.type, data: event.data, metadata: {} as never }],
      expected,
    );

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'command-runner-'));
    store = new SqliteEventStore({ path: join(dir, 'events.sqlite') });
    const readStream = store.readStream.bind(store);
    reads = 0;
    store.readStream = (...args) => {
      reads += 1;
      return readStream(...args);
    };
    runner = new CommandRunner(store, new ManualClock(() => 0));
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('decides on the state it folded last without reading the stream again', async () => {
    await runner.run(counter, 'counter-1', { type: 'Set', value: 1 }, ctx);
    reads = 0;
    const result = await runner.run(counter, 'counter-1', { type: 'Set', value: 2 }, ctx);
    expect(reads).toBe(0);
    expect(result).toMatchObject({ revision: 1, state: { value: 2 } });
  });

  it('decides a command that starts its stream without reading it, and on the log should it exist', async () => {
    const starting = { ...counter, startsStream: (command: Command) => command.type === 'Set' };
    const fresh = await runner.run(starting, 'counter-2', { type: 'Set', value: 1 }, ctx);
    expect(reads).toBe(0);
    expect(fresh).toMatchObject({ revision: 0, state: { value: 1 } });
    // Written elsewhere (this runner never folded it): the append finds it, the log decides.
    await appendElsewhere({ type: 'ValueSet', data: { value: 5 } }, 'no_stream');
    const existing = await runner.run(starting, 'counter-1', { type: 'Set', value: 5 }, ctx);
    expect(existing).toMatchObject({ revision: 0, state: { value: 5 }, events: [] });
    expect(reads).toBe(1);
    expect((await store.readStream('counter-1')).map((e) => e.data)).toEqual([{ value: 5 }]);
  });

  it('decides again on the stored stream when another process wrote it since', async () => {
    await runner.run(counter, 'counter-1', { type: 'Set', value: 1 }, ctx);
    await appendElsewhere({ type: 'ValueSet', data: { value: 5 } }, 0);
    const result = await runner.run(counter, 'counter-1', { type: 'Set', value: 6 }, ctx);
    expect(result).toMatchObject({ revision: 2, state: { value: 6 } });
    expect((await store.readStream('counter-1')).map((e) => e.data)).toEqual([
      { value: 1 },
      { value: 5 },
      { value: 6 },
    ]);
  });

  it('computes a command again on the stored state when another process wrote the stream since', async () => {
    await runner.run(counter, 'counter-1', { type: 'Set', value: 1 }, ctx);
    await appendElsewhere({ type: 'ValueSet', data: { value: 5 } }, 0);
    // "Add ten" needs the state it is decided on: computed on the folded 1 it would set 11.
    const seen: number[] = [];
    const result = await runner.run(
      counter,
      'counter-1',
      async (state) => {
        seen.push(state.value);
        return { type: 'Set' as const, value: state.value + 10 };
      },
      ctx,
    );
    expect(seen).toEqual([1, 5]);
    expect(result).toMatchObject({ revision: 2, state: { value: 15 } });
  });

  it('checks "no change" and refusals against the stored stream, not the folded state', async () => {
    await runner.run(counter, 'counter-1', { type: 'Set', value: 1 }, ctx);
    await appendElsewhere({ type: 'ValueSet', data: { value: 5 } }, 0);
    // Set 1 is no change on the folded state, but the stream says 5.
    expect(await runner.run(counter, 'counter-1', { type: 'Set', value: 1 }, ctx)).toMatchObject({
      revision: 2,
      events: [{ type: 'ValueSet' }],
    });
    await appendElsewhere({ type: 'Closed', data: {} }, 2);
    await expect(runner.run(counter, 'counter-1', { type: 'Open' }, ctx)).rejects.toThrow('closed');
  });

  describe('while another process keeps writing the stream', () => {
    let observability: Observability;
    let appends: number;

    /** Another process appends just before each of this runner's first `times` appends. */
    const interfere = (times: number) => {
      const append = store.append.bind(store);
      appends = 0;
      store.append = async (stream, events, expected) => {
        if (appends++ < times) {
          const head = (await store.readStream(stream)).length - 1;
          await append(
            stream,
            [{ id: newEventId(), type: 'ValueSet', data: { value: 100 + appends }, metadata: {} as never }],
            head < 0 ? 'no_stream' : head,
          );
        }
        return append(stream, events, expected);
      };
    };
    const conflicts = async () =>
      Object.fromEntries(
        (
          (await observability.metrics.registry.getSingleMetric('write_conflicts_total')?.get())?.values ?? []
        ).map((v) => [v.labels.outcome, v.value]),
      );

    beforeEach(async () => {
      observability = createObservability({ level: 'silent' });
      runner = new CommandRunner(store, new ManualClock(() => 0), observability);
      await runner.run(counter, 'counter-1', { type: 'Set', value: 1 }, ctx);
    });

    it('retries on the stream read again and lands the write once it is not overtaken', async () => {
      interfere(MAX_ATTEMPTS - 1);
      const result = await runner.run(counter, 'counter-1', { type: 'Set', value: 7 }, ctx);
      expect(result).toMatchObject({ state: { value: 7 } });
      expect(appends).toBe(MAX_ATTEMPTS);
      const values = (await store.readStream('counter-1')).map((e) => (e.data as { value: number }).value);
      expect(values.at(-1)).toBe(7);
      // The first refusal only told this runner its folded state was stale; the others were retried.
      expect(await conflicts()).toEqual({ refolded: 1, retried: MAX_ATTEMPTS - 2 });
    });

    it('answers 409 only after MAX_ATTEMPTS refused appends, and appends nothing of its own', async () => {
      interfere(Number.POSITIVE_INFINITY);
      const before = (await store.readStream('counter-1')).length;
      await expect(runner.run(counter, 'counter-1', { type: 'Set', value: 7 }, ctx)).rejects.toMatchObject({
        kind: 'conflict',
      });
      // One refusal for the stale fold, then MAX_ATTEMPTS on streams read again.
      expect(appends).toBe(MAX_ATTEMPTS + 1);
      const stream = await store.readStream('counter-1');
      expect(stream).toHaveLength(before + appends);
      expect(stream.map((e) => (e.data as { value: number }).value)).not.toContain(7);
      expect(await conflicts()).toEqual({ refolded: 1, retried: MAX_ATTEMPTS - 1, refused: 1 });
    });

    it('answers 412, not 409, to a pinned revision the stream moved past while appending', async () => {
      // A runner that reads the stream first: its If-Match holds until the other write lands.
      const fresh = new CommandRunner(store, new ManualClock(() => 0), observability);
      interfere(1);
      await expect(
        fresh.run(counter, 'counter-1', { type: 'Set', value: 7 }, { ...ctx, ifMatch: 0 }),
      ).rejects.toBeInstanceOf(PreconditionFailedError);
      expect(appends).toBe(1);
      expect(await conflicts()).toEqual({ retried: 1 });
    });
  });

  it('answers If-Match against the stored revision', async () => {
    await runner.run(counter, 'counter-1', { type: 'Set', value: 1 }, ctx);
    await appendElsewhere({ type: 'ValueSet', data: { value: 5 } }, 0);
    await expect(
      runner.run(counter, 'counter-1', { type: 'Set', value: 7 }, { ...ctx, ifMatch: 0 }),
    ).rejects.toBeInstanceOf(PreconditionFailedError);
    const result = await runner.run(counter, 'counter-1', { type: 'Set', value: 7 }, { ...ctx, ifMatch: 1 });
    expect(result).toMatchObject({ revision: 2, state: { value: 7 } });
  });

  describe('prerequisites', () => {
    const noted = (value: number) => ({ type: 'Noted', data: { value } });
    const notes = async () => (await store.readStream('notes-1')).map((e) => e.data);

    it('appends them first, with the command, and calls `appended` before the next command runs', async () => {
      const order: string[] = [];
      const first = runner.run(
        counter,
        'counter-1',
        async (_state, prerequisite) => {
          prerequisite({ stream: 'notes-1', events: [noted(1)], appended: () => order.push('appended') });
          return { type: 'Set' as const, value: 1 };
        },
        ctx,
      );
      const second = runner.run(
        counter,
        'counter-1',
        async () => {
          order.push('second decided');
          return { type: 'Set' as const, value: 2 };
        },
        ctx,
      );
      await Promise.all([first, second]);
      expect(order).toEqual(['appended', 'second decided']);
      const [note] = await store.readStream('notes-1');
      const [set] = await store.readStream('counter-1');
      expect(note.data).toEqual({ value: 1 });
      expect(note.position).toBeLessThan(set.position);
      expect(note.metadata.correlationId).toBe('c');
    });

    it('appends none of them for a command refused or changing nothing', async () => {
      await runner.run(counter, 'counter-1', { type: 'Set', value: 1 }, ctx);
      const appended = jest.fn();
      const noting = (command: Command) => async (_state: State, prerequisite: (p: Prerequisite) => void) => {
        prerequisite({ stream: 'notes-1', events: [noted(9)], appended });
        return command;
      };
      await runner.run(counter, 'counter-1', noting({ type: 'Set', value: 1 }), ctx);
      await runner.run(counter, 'counter-1', { type: 'Open' }, ctx);
      await runner.run(counter, 'counter-1', async () => ({ type: 'Set' as const, value: 3 }), ctx);
      await runner.run(counter, 'counter-1', { type: 'Set', value: 4 }, ctx);
      await appendElsewhere({ type: 'Closed', data: {} }, 2);
      await expect(runner.run(counter, 'counter-1', noting({ type: 'Open' }), ctx)).rejects.toThrow('closed');
      expect(await notes()).toEqual([]);
      expect(appended).not.toHaveBeenCalled();
    });

    it('appends only the ones of the attempt that lands, after a concurrent write', async () => {
      await runner.run(counter, 'counter-1', { type: 'Set', value: 1 }, ctx);
      let attempt = 0;
      const result = await runner.run(
        counter,
        'counter-1',
        async (state, prerequisite) => {
          attempt += 1;
          // Written elsewhere while the first attempt computes: its append is refused, its notes with it.
          if (attempt === 1) await appendElsewhere({ type: 'ValueSet', data: { value: 5 } }, 0);
          prerequisite({ stream: 'notes-1', events: [noted(attempt)] });
          return { type: 'Set' as const, value: state.value + 10 };
        },
        ctx,
      );
      expect(result).toMatchObject({ state: { value: 15 } });
      expect(await notes()).toEqual([{ value: 2 }]);
    });
  });
  describe('commands that waited on the stream', () => {
    let appends: { streams: string[]; events: number }[];
    let release: () => void;

    /** Holds the stream with a first command until `release`, so the next ones wait together. */
    const holdStream = () => {
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      return runner.run(
        counter,
        'counter-1',
        async () => {
          await gate;
          return { type: 'Set' as const, value: 1 };
        },
        ctx,
      );
    };
    const settled = (promises: Promise<unknown>[]) => Promise.allSettled(promises);

    beforeEach(() => {
      appends = [];
      const append = store.append.bind(store);
      const appendInOrder = store.appendInOrder.bind(store);
      store.append = (stream, events, expected) => {
        appends.push({ streams: [stream], events: events.length });
        return append(stream, events, expected);
      };
      store.appendInOrder = (parts) => {
        appends.push({
          streams: parts.map((p) => p.stream),
          events: parts.reduce((n, p) => n + p.events.length, 0),
        });
        return appendInOrder(parts);
      };
    });

    it('are decided one after the other on the state each leaves, and appended at once', async () => {
      const first = holdStream();
      const waiting = [2, 3, 3, 4].map((value) =>
        runner.run(counter, 'counter-1', { type: 'Set', value }, ctx),
      );
      release();
      await first;
      const outcomes = await Promise.all(waiting);
      expect(outcomes.map((o) => [o.revision, o.events.length, o.state.value])).toEqual([
        [1, 1, 2],
        [2, 1, 3],
        [2, 0, 3],
        [3, 1, 4],
      ]);
      // The first alone, then the four waiting ones together.
      expect(appends).toEqual([
        { streams: ['counter-1'], events: 1 },
        { streams: ['counter-1'], events: 3 },
      ]);
      const stored = await store.readStream('counter-1');
      expect(stored.map((e) => (e.data as { value: number }).value)).toEqual([1, 2, 3, 4]);
      expect(new Set(outcomes.map((o) => o.position))).toEqual(new Set([stored.at(-1)?.position]));
    });

    it('answer a refusal or a stale If-Match decided on what the earlier ones bring, once those land', async () => {
      const first = holdStream();
      const close = runner.run(counter, 'counter-1', { type: 'Close' }, ctx);
      const open = runner.run(counter, 'counter-1', { type: 'Open' }, ctx);
      const pinnedBefore = runner.run(
        counter,
        'counter-1',
        { type: 'Set', value: 5 },
        { ...ctx, ifMatch: 0 },
      );
      const pinnedAfter = runner.run(counter, 'counter-1', { type: 'Set', value: 6 }, { ...ctx, ifMatch: 1 });
      release();
      await first;
      const [closed, opened, before, after] = await settled([close, open, pinnedBefore, pinnedAfter]);
      expect(closed).toMatchObject({ status: 'fulfilled', value: { revision: 1 } });
      expect(opened).toMatchObject({ status: 'rejected', reason: { message: 'closed' } });
      expect(before).toMatchObject({ status: 'rejected', reason: expect.any(PreconditionFailedError) });
      expect(after).toMatchObject({ status: 'fulfilled', value: { revision: 2, state: { value: 6 } } });
      expect(appends).toHaveLength(2);
    });

    it('see the prerequisites of the ones decided before them, all appended first, `appended` once landed', async () => {
      const seen: string[][] = [];
      const calls: string[] = [];
      const noting =
        (value: number): ComputedCommand<Command, State> =>
        async (_state, prerequisite, earlier) => {
          seen.push(earlier.map((p) => String(p.staged?.get('note'))));
          prerequisite({
            stream: 'notes-1',
            events: [{ type: 'Noted', data: { value } }],
            staged: new Map([['note', value]]),
            appended: () => calls.push(`appended ${value}`),
          });
          return { type: 'Set', value };
        };
      const first = holdStream();
      const waiting = [7, 8, 9].map((value) => runner.run(counter, 'counter-1', noting(value), ctx));
      release();
      await first;
      await Promise.all(waiting);
      expect(seen).toEqual([[], ['7'], ['7', '8']]);
      expect(calls).toEqual(['appended 7', 'appended 8', 'appended 9']);
      expect(appends.at(-1)).toEqual({ streams: ['notes-1', 'notes-1', 'notes-1', 'counter-1'], events: 6 });
      const [note] = await store.readStream('notes-1');
      const sets = await store.readStream('counter-1');
      expect(note.position).toBeLessThan(sets[1].position);
    });

    it('all get an answer when something outside them fails, and the stream takes the next ones', async () => {
      const first = holdStream();
      const failing: ComputedCommand<Command, State> = async (_state, prerequisite) => {
        prerequisite({
          stream: 'notes-1',
          events: [{ type: 'Noted', data: {} }],
          appended: () => {
            throw new Error('cache full');
          },
        });
        return { type: 'Set', value: 2 };
      };
      const waiting = [
        runner.run(counter, 'counter-1', failing, ctx),
        runner.run(counter, 'counter-1', { type: 'Set', value: 3 }, ctx),
      ];
      release();
      await first;
      const outcomes = await settled(waiting);
      expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
      const next = await runner.run(counter, 'counter-1', { type: 'Set', value: 4 }, ctx);
      expect(next).toMatchObject({ revision: 3, state: { value: 4 } });
    });

    it('are decided again one by one when another process wrote the stream meanwhile, storing nothing of the joint attempt', async () => {
      const decided: number[] = [];
      const first = holdStream();
      const waiting = [7, 8].map((value) =>
        runner.run(
          counter,
          'counter-1',
          async (state, prerequisite) => {
            decided.push(state.value);
            // Written elsewhere while the joint attempt decides: its append is refused, notes and all.
            if (decided.length === 1) await appendElsewhere({ type: 'ValueSet', data: { value: 50 } }, 0);
            prerequisite({
              stream: 'notes-1',
              events: [{ type: 'Noted', data: { value, after: state.value } }],
            });
            return { type: 'Set' as const, value: state.value + value };
          },
          ctx,
        ),
      );
      release();
      await first;
      const outcomes = await Promise.all(waiting);
      // Jointly on 1 and 8, then alone on the stored 50, and on 57.
      expect(decided).toEqual([1, 8, 50, 57]);
      expect(outcomes.map((o) => o.state.value)).toEqual([57, 65]);
      expect((await store.readStream('notes-1')).map((e) => e.data)).toEqual([
        { value: 7, after: 50 },
        { value: 8, after: 57 },
      ]);
    });
  });
});
