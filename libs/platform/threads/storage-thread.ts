import { EventEmitter } from 'node:events';
import { Worker } from 'node:worker_threads';
import { SubscriptionFailedError } from '../eventstore/event-store.port';
import type { EventWriter, WireAppend, WireOutcome } from '../eventstore/event-writer';
import { PositionWaits } from '../projector/position-waits';
import type { CommittedViews, LiveProjector } from '../projector/projector';
import { type ChangedCollections, ChangeListeners } from '../projector/view-changes';

/** Pause before a storage thread that died is started again; the projector resumes from its checkpoint. */
const RESTART_DELAY_MS = 1000;

/**
 * The storage thread's old-generation limit (MB). V8 lets a heap grow past its live data by a factor it
 * takes from this limit: up to 4× under the default limit of a machine with some memory, about 1.4× under
 * this one. The thread's live data is a few tens of MB, but a large merge allocates well over 100 MB on it
 * in one batch: with the default, one run in four kept a heap of 200 MB after it (IMPORT in
 * BENCHMARKS.md), with this limit under 100 MB. A thread that still runs out starts again with twice the
 * limit (up to MAX_HEAP_MB), so a batch that needs more is slower once, never stuck.
 */
const HEAP_MB = 512;
const MAX_HEAP_MB = 8192;
/**
 * Its young generation (MB), a third of V8's default (48 MB): a live batch's objects die young in it all
 * the same, and a large merge's peak is some 15 MB lower.
 */
const YOUNG_MB = 16;

/** Requests to the storage thread. */
export type StorageThreadRequest =
  | { type: 'append'; id: number; appends: WireAppend[][] }
  | { type: 'start' }
  | { type: 'stop' }
  | { type: 'close' };

/** Messages from the storage thread. */
export type StorageThreadMessage =
  | { type: 'appended'; id: number; outcomes: WireOutcome[] }
  | { type: 'started'; position: number }
  | {
      type: 'committed';
      position: number;
      changed: string[] | 'all';
      writes: [string, string, string | null][];
    }
  | { type: 'stopped' }
  | { type: 'closed' }
  /** The projector's subscription stopped for good (a `SubscriptionFailedError`'s message). */
  | { type: 'failed'; message: string };

/** A document the storage thread wrote to the live views (JSON, or null once deleted). */
export interface ForeignWrite {
  collection: string;
  id: string;
  json: string | null;
}

export interface StorageThreadOptions {
  /** The compiled worker script: it holds its own connections to the log and the views. */
  script: string;
  workerData: unknown;
  /** Told of every commit to the views, before it is announced (a document cache of this thread). */
  onCommit?: (writes: ForeignWrite[] | 'all') => void;
  /** The thread's first old-generation limit (MB): HEAP_MB unless a test needs a small one. */
  heapMb?: number;
}

/**
 * The storage thread of a standalone server, seen from the thread that serves HTTP. That thread commits
 * the log (appends are handed to it in small groups as they are made: `writer`) and runs the projector,
 * so that neither the fsync of a group commit nor projecting and committing the views shares the event
 * loop of HTTP. This object stands in for the projector here (`LiveProjector`): it knows how far the
 * views are from the thread's reports, and announces each commit to this thread's caches, with the
 * documents written, before a wait for its position resolves, exactly as the projector does in process.
 */
export class StorageThread implements LiveProjector {
  private position = 0;
  private running = false;
  private failed?: Error;
  private closing = false;
  /** Undefined between the exit of a thread and the start of the next one. */
  private worker?: Worker;
  /** Requests made meanwhile, posted to the next thread as soon as it starts. */
  private queued: StorageThreadRequest[] = [];
  private nextId = 1;
  private readonly appends = new Map<
    number,
    { resolve: (o: WireOutcome[]) => void; reject: (e: Error) => void }
  >();
  private readonly changes = new ChangeListeners();
  private readonly waits = new PositionWaits(() => this.position);
  private readonly replies = new EventEmitter();
  private heapMb: number;

  constructor(private readonly options: StorageThreadOptions) {
    this.heapMb = options.heapMb ?? HEAP_MB;
    this.replies.setMaxListeners(0);
    // Started at once, so that it opens its stores while this thread builds the application.
    this.spawn();
  }

  /** Commits appends on the storage thread; for `SqliteEventStore`'s `writer`. */
  readonly writer: EventWriter = {
    commit: (appends) =>
      new Promise((resolve, reject) => {
        if (this.closing) return reject(new Error('the storage thread is closed'));
        const id = this.nextId++;
        this.appends.set(id, { resolve, reject });
        this.post({ type: 'append', id, appends });
      }),
  };

  onChange(listener: (changed: ChangedCollections) => void): void {
    this.changes.add(listener);
  }

  /** Starts the projector on the thread; resolves once it follows the log. */
  async start(): Promise<void> {
    const started = this.reply('started');
    this.post({ type: 'start' });
    await started;
  }

  /** Stops the projector; the thread still commits appends until `close`. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    const stopped = this.reply('stopped');
    this.post({ type: 'stop' });
    await stopped;
  }

  /** Closes the thread's stores and ends it; appends handed over before are answered first. */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    this.running = false;
    const worker = this.worker;
    if (!worker) return;
    const closed = this.reply('closed');
    this.post({ type: 'close' });
    await closed;
    await worker.terminate();
  }

  checkpoint(): number {
    return this.position;
  }

  /** The failure the thread's projector reported, until a projector starts again. */
  failure(): Error | undefined {
    return this.failed;
  }

  active(): boolean {
    return this.running;
  }

  covers(position: number): boolean {
    return this.position >= position;
  }

  waitFor(position: number, timeoutMs = 5000): Promise<void> {
    return this.waits.wait(position, timeoutMs);
  }

  private post(request: StorageThreadRequest): void {
    if (this.worker) this.worker.postMessage(request);
    else this.queued.push(request);
  }

  /** The next message of `type`; rejected if the thread exits first. */
  private reply(type: 'started' | 'stopped' | 'closed'): Promise<void> {
    return new Promise((resolve, reject) => {
      const onReply = () => {
        this.replies.off('exit', onExit);
        resolve();
      };
      const onExit = (error: Error) => {
        this.replies.off(type, onReply);
        // Closing ends the thread anyway: nothing is left to wait for.
        if (type === 'closed') resolve();
        else reject(error);
      };
      this.replies.once(type, onReply);
      this.replies.once('exit', onExit);
    });
  }

  private spawn(): void {
    const worker = new Worker(this.options.script, {
      workerData: this.options.workerData,
      resourceLimits: { maxOldGenerationSizeMb: this.heapMb, maxYoungGenerationSizeMb: YOUNG_MB },
    });
    this.worker = worker;
    for (const request of this.queued.splice(0)) worker.postMessage(request);
    worker.on('message', (message: StorageThreadMessage) => this.receive(message));
    worker.on('error', (error) => {
      process.stderr.write(`storage thread failed: ${error.stack ?? String(error)}\n`);
      if ((error as { code?: string }).code !== 'ERR_WORKER_OUT_OF_MEMORY') return;
      this.heapMb = Math.min(this.heapMb * 2, MAX_HEAP_MB);
      process.stderr.write(`the storage thread's next heap limit: ${this.heapMb} MB\n`);
    });
    worker.on('exit', (code) => this.exited(worker, code));
  }

  private exited(worker: Worker, code: number): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    const wasRunning = this.running;
    this.running = false;
    const error = new Error(`the storage thread exited (code ${code})`);
    // Appends it had not answered may or may not be in the log: their callers get an error, not a success.
    for (const pending of this.appends.values()) pending.reject(error);
    this.appends.clear();
    this.replies.emit('exit', error);
    if (this.closing) return;
    // Nothing acknowledged is lost: the views' checkpoint is committed with them, and a new thread resumes there.
    process.stderr.write(`${error.message}; starting it again\n`);
    setTimeout(() => {
      if (this.closing) return;
      this.spawn();
      if (wasRunning) this.start().catch(() => undefined);
    }, RESTART_DELAY_MS).unref();
  }

  private receive(message: StorageThreadMessage): void {
    switch (message.type) {
      case 'appended': {
        const pending = this.appends.get(message.id);
        this.appends.delete(message.id);
        pending?.resolve(message.outcomes);
        return;
      }
      case 'committed':
        this.committed(message);
        return;
      case 'started':
        this.running = true;
        this.failed = undefined;
        this.advance(message.position);
        break;
      case 'failed':
        this.failed = new SubscriptionFailedError(message.message);
        return;
    }
    this.replies.emit(message.type);
  }

  private committed(message: Extract<StorageThreadMessage, { type: 'committed' }>): void {
    if (message.changed === 'all') {
      this.options.onCommit?.('all');
      this.changes.announce('all');
    } else {
      this.options.onCommit?.(message.writes.map(([collection, id, json]) => ({ collection, id, json })));
      this.changes.announce(new Set(message.changed));
    }
    this.advance(message.position);
  }

  private advance(position: number): void {
    if (position <= this.position) return;
    this.position = position;
    this.waits.notify();
  }
}

/** A commit as the storage thread posts it: documents as JSON, so this thread parses only those it keeps. */
export function committedMessage(committed: CommittedViews): StorageThreadMessage {
  // A document created by the commit cannot be in the serving thread's cache (it keeps only documents
  // it read, and this one was not there to read): most writes are such (audit entries), so they are
  // neither serialized again nor copied across.
  const writes: [string, string, string | null][] = [];
  for (const { collection, id, doc, created, blind } of committed.writes) {
    // A blind write (many per event, like search postings) is sent as a deletion: a kept copy is forgotten.
    if (created) continue;
    writes.push([collection, id, doc === null || blind ? null : JSON.stringify({ ...doc, id })]);
  }
  return {
    type: 'committed',
    position: committed.position,
    changed: committed.changed === 'all' ? 'all' : [...committed.changed],
    writes,
  };
}
