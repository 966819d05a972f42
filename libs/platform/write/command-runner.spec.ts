import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../clock/clock';
import { conflict, type Decider, type DomainEvent } from '../domain/decider';
import { newEventId } from '../eventstore/event-id';
import { SqliteEventStore } from '../eventstore/sqlite-event-store';
import type { CommandContext } from './command-context';
import { CommandRunner, PreconditionFailedError } from './command-runner';

/** A counter: `Set` records a new value unless it is the current one; `Open` refuses once closed. */
type Command = { type: 'Set'; value: number } | { type: 'Open' };
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
  const appendElsewhere = (event: Event, expected: number) =>
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

  it('answers If-Match against the stored revision', async () => {
    await runner.run(counter, 'counter-1', { type: 'Set', value: 1 }, ctx);
    await appendElsewhere({ type: 'ValueSet', data: { value: 5 } }, 0);
    await expect(
      runner.run(counter, 'counter-1', { type: 'Set', value: 7 }, { ...ctx, ifMatch: 0 }),
    ).rejects.toBeInstanceOf(PreconditionFailedError);
    const result = await runner.run(counter, 'counter-1', { type: 'Set', value: 7 }, { ...ctx, ifMatch: 1 });
    expect(result).toMatchObject({ revision: 2, state: { value: 7 } });
  });
});
