import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { openWalDatabase } from '../sqlite/open-database';
import { deliverUntilAccepted, HANDLER_RETRY_DELAY_MS, Waiter } from './batch-delivery';
import {
  type AppendResult,
  type BatchHandler,
  type EventMetadata,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type RecordedEvent,
  type Subscription,
  WrongExpectedRevisionError,
} from './event-store.port';

export interface SqliteEventStoreOptions {
  /** SQLite file; created when missing. Several processes may share it. */
  path: string;
  /** How often subscriptions look for events appended by other processes (default 100). */
  pollIntervalMs?: number;
}

const DEFAULT_POLL_INTERVAL_MS = 100;
const SUBSCRIPTION_BATCH_SIZE = 1000;
const APPENDED = 'appended';
const SETTLED = 'settled';

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS events (
    position INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    stream TEXT NOT NULL,
    revision INTEGER NOT NULL,
    type TEXT NOT NULL,
    data TEXT NOT NULL,
    metadata TEXT NOT NULL,
    UNIQUE (stream, revision)
  );
  CREATE TABLE IF NOT EXISTS streams (
    name TEXT PRIMARY KEY,
    revision INTEGER NOT NULL
  ) WITHOUT ROWID;
`;

const EVENT_COLUMNS = 'position, id, stream, revision, type, data, metadata';

interface EventRow {
  position: number;
  id: string;
  stream: string;
  revision: number;
  type: string;
  data: string;
  metadata: string;
}

/** An append waiting for the next group commit, with its events already serialized. */
interface PendingAppend {
  stream: string;
  expected: ExpectedRevision;
  events: { id: string; type: string; data: string; metadata: string }[];
  resolve: (result: AppendResult) => void;
  reject: (error: unknown) => void;
}

/** An error as the writer thread reports it (errors do not cross threads with their class). */
interface WriterError {
  name: string;
  message: string;
  stream?: string;
  expected?: ExpectedRevision;
  actual?: number | 'no_stream';
}

type Outcome = { ok: true; result: AppendResult } | { ok: false; error: WriterError };

type WriterReply = { id: number; outcomes: Outcome[] } | { id: number; failed: WriterError };

/**
 * Event store in a single SQLite file. Appends issued while the previous commit is running are
 * committed together in one fsync'ed transaction (group commit), which is what makes many small
 * concurrent appends cheap. Commits run on a writer thread (`sqlite-writer.worker.js`), so the
 * fsync does not stop the event loop; reads use this thread's own connection.
 */
export class SqliteEventStore implements EventStore {
  private readonly db: Database.Database;
  private readonly path: string;
  private readonly pollIntervalMs: number;
  private readonly notifier = new EventEmitter();
  private readonly subscriptions = new Set<SqliteSubscription>();
  private pending: PendingAppend[] = [];
  private flushScheduled = false;
  private closed = false;
  private writer?: Worker;
  /** The group commit the writer is running, if any. */
  private inFlight?: { id: number; batch: PendingAppend[]; done: () => void };
  private commits = 0;

  private readonly statements: ReturnType<typeof prepareStatements>;

  constructor(options: SqliteEventStoreOptions) {
    this.pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
    this.notifier.setMaxListeners(0);
    this.path = options.path;
    this.db = openDatabase(options.path);
    this.statements = prepareStatements(this.db);
  }

  append(stream: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (this.closed) return Promise.reject(new Error('event store is closed'));
    return new Promise((resolve, reject) => {
      try {
        assertAppendable(events, expected);
        this.pending.push({ stream, expected, events: events.map(serialize), resolve, reject });
        this.scheduleFlush();
      } catch (error) {
        reject(error);
      }
    });
  }

  async readStream(stream: string, fromRevision = 0): Promise<RecordedEvent[]> {
    return this.statements.readStream.all(stream, fromRevision).map(toRecorded);
  }

  async readAll(afterPosition: number, maxCount: number): Promise<RecordedEvent[]> {
    return this.readAllSync(afterPosition, maxCount);
  }

  subscribeAll(afterPosition: number, handler: BatchHandler): Subscription {
    if (this.closed) throw new Error('event store is closed');
    const subscription = new SqliteSubscription({
      read: (after) => this.readAllSync(after, SUBSCRIPTION_BATCH_SIZE),
      listen: (listener) => this.listen(listener),
      pollIntervalMs: this.pollIntervalMs,
      afterPosition,
      handler,
      onClosed: () => this.subscriptions.delete(subscription),
    });
    this.subscriptions.add(subscription);
    return subscription;
  }

  async headPosition(): Promise<number> {
    return this.statements.head.get() ?? 0;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.subscriptions].map((subscription) => subscription.close()));
    // Appends already accepted are committed before the store closes.
    while (this.inFlight || this.pending.length > 0) {
      await new Promise<void>((resolve) => {
        if (this.inFlight) this.notifier.once(SETTLED, resolve);
        else {
          this.flush();
          resolve();
        }
      });
    }
    const writer = this.writer;
    this.writer = undefined;
    if (writer) {
      const exited = new Promise((resolve) => writer.once('exit', resolve));
      writer.postMessage('close');
      await exited;
    }
    this.db.close();
  }

  private readAllSync(afterPosition: number, maxCount: number): RecordedEvent[] {
    return this.statements.readAll.all(afterPosition, maxCount).map(toRecorded);
  }

  private listen(listener: () => void): () => void {
    this.notifier.on(APPENDED, listener);
    return () => this.notifier.off(APPENDED, listener);
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => this.flush());
  }

  /** Sends what is pending to the writer as one group commit, unless one is running already. */
  private flush(): void {
    this.flushScheduled = false;
    if (this.inFlight || this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    const writer = this.startWriter();
    const id = ++this.commits;
    this.inFlight = {
      id,
      batch,
      done: () => {
        this.inFlight = undefined;
        // Nothing keeps the process alive for an idle writer.
        if (this.pending.length === 0) writer.unref();
        this.notifier.emit(SETTLED);
        this.flush();
      },
    };
    writer.ref();
    writer.postMessage({
      id,
      batch: batch.map(({ stream, expected, events }) => ({ stream, expected, events })),
    });
  }

  private startWriter(): Worker {
    if (this.writer) return this.writer;
    const writer = new Worker(join(__dirname, 'sqlite-writer.worker.js'), {
      workerData: { path: this.path },
    });
    writer.on('message', (reply: WriterReply) => this.settle(reply));
    // A writer that died takes its commit with it: unknown whether it landed, so it is reported failed.
    writer.on('error', (error) => this.abandon(writer, error));
    writer.on('exit', (code) => this.abandon(writer, new Error(`event store writer exited (${code})`)));
    this.writer = writer;
    return writer;
  }

  private settle(reply: WriterReply): void {
    const inFlight = this.inFlight;
    if (!inFlight || inFlight.id !== reply.id) return;
    if ('failed' in reply) {
      for (const append of inFlight.batch) append.reject(toError(reply.failed));
    } else {
      for (const [i, append] of inFlight.batch.entries()) {
        const outcome = reply.outcomes[i];
        if (outcome.ok) append.resolve(outcome.result);
        else append.reject(toError(outcome.error));
      }
      if (reply.outcomes.some((outcome) => outcome.ok)) this.notifier.emit(APPENDED);
    }
    inFlight.done();
  }

  private abandon(writer: Worker, error: Error): void {
    if (this.writer !== writer) return;
    this.writer = undefined;
    const inFlight = this.inFlight;
    if (!inFlight) return;
    for (const append of inFlight.batch) append.reject(error);
    inFlight.done();
  }
}

interface SubscriptionSource {
  /** The next events after a position, in order; synchronous so nothing can slip in between read and wait. */
  read(afterPosition: number): RecordedEvent[];
  /** Calls `listener` whenever this process appends; returns the unsubscribe function. */
  listen(listener: () => void): () => void;
  pollIntervalMs: number;
  afterPosition: number;
  handler: BatchHandler;
  onClosed(): void;
}

/** Follows the log: catches up in batches, then waits for a local append or the next poll. */
class SqliteSubscription implements Subscription {
  private position: number;
  private stopped = false;
  private readonly newEvents = new Waiter();
  private readonly retryPause = new Waiter();
  private readonly unlisten: () => void;
  private readonly done: Promise<void>;

  constructor(private readonly source: SubscriptionSource) {
    this.position = source.afterPosition;
    this.unlisten = source.listen(() => this.newEvents.wake());
    // Started on a later tick so that the handler never runs before subscribeAll() has returned.
    this.done = Promise.resolve().then(() => this.run());
  }

  async close(): Promise<void> {
    this.stopped = true;
    this.unlisten();
    this.newEvents.wake();
    this.retryPause.wake();
    await this.done;
    this.source.onClosed();
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      const batch = this.readNext();
      if (batch === undefined) {
        await this.retryPause.wait(HANDLER_RETRY_DELAY_MS);
      } else if (batch.length === 0) {
        await this.newEvents.wait(this.source.pollIntervalMs);
      } else {
        await this.deliver(batch);
        // A long catch-up with a fast handler would otherwise run on microtasks alone and starve timers and I/O.
        await yieldToEventLoop();
      }
    }
  }

  private async deliver(batch: RecordedEvent[]): Promise<void> {
    if (await deliverUntilAccepted(batch, this.source.handler, () => this.stopped, this.retryPause)) {
      this.position = batch[batch.length - 1].position;
    }
  }

  /** Undefined when the read failed (e.g. the file is locked for too long); the loop tries again. */
  private readNext(): RecordedEvent[] | undefined {
    try {
      return this.source.read(this.position);
    } catch (error) {
      process.stderr.write(
        `event store subscription: read after position ${this.position} failed: ${String(error)}\n`,
      );
      return undefined;
    }
  }
}

function openDatabase(path: string): Database.Database {
  // FULL syncs the WAL on every commit: an acknowledged append survives a crash or power loss.
  return openWalDatabase(path, { synchronous: 'FULL', schema: SCHEMA });
}

function prepareStatements(db: Database.Database) {
  return {
    readStream: db.prepare<[string, number], EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM events WHERE stream = ? AND revision >= ? ORDER BY revision`,
    ),
    readAll: db.prepare<[number, number], EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM events WHERE position > ? ORDER BY position LIMIT ?`,
    ),
    head: db.prepare<[], number>('SELECT COALESCE(MAX(position), 0) FROM events').pluck(),
  };
}

function assertAppendable(events: NewEvent[], expected: ExpectedRevision): void {
  if (events.length === 0) throw new Error('append needs at least one event');
  if (typeof expected === 'number' && !(Number.isInteger(expected) && expected >= 0)) {
    throw new Error(`invalid expected revision ${expected}`);
  }
  if (new Set(events.map((event) => event.id)).size !== events.length) {
    throw new Error('append contains the same event id twice');
  }
}

function toError(error: WriterError): Error {
  if (
    error.name === 'WrongExpectedRevisionError' &&
    error.stream !== undefined &&
    error.expected !== undefined
  )
    return new WrongExpectedRevisionError(error.stream, error.expected, error.actual ?? 'no_stream');
  return new Error(error.message);
}

function serialize(event: NewEvent): PendingAppend['events'][number] {
  return {
    id: event.id,
    type: event.type,
    data: JSON.stringify(event.data) ?? 'null',
    metadata: JSON.stringify(event.metadata),
  };
}

function toRecorded(row: EventRow): RecordedEvent {
  return {
    id: row.id,
    stream: row.stream,
    revision: row.revision,
    position: row.position,
    type: row.type,
    data: JSON.parse(row.data) as unknown,
    metadata: JSON.parse(row.metadata) as EventMetadata,
  };
}
