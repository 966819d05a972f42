import { Worker } from 'node:worker_threads';
import { compiledScript } from '../threads/compiled-script';
import type { CheckpointWrite, Doc, FindQuery, IndexSpec, Page, ReadStore, Write } from './read-store.port';
import { type SerializedBatch, serializeBatch } from './serialized-batch';

/** What the commit thread is asked to do, in order. */
export type CommitRequest =
  | { type: 'commit'; batch: SerializedBatch; checkpoint?: CheckpointWrite }
  | { type: 'ensureIndexes'; indexes: IndexSpec[]; options?: { deferred?: boolean } }
  | { type: 'clear' }
  | { type: 'close' };

export type CommitMessage = CommitRequest & { id: number };

export type CommitReply = { id: number; ok: true } | { id: number; ok: false; message: string };

/**
 * A handle on one generation of the SQLite views for a rebuild to fill, whose writes (commits, index
 * builds) run in order on a thread of their own while reads go through `reads`, a handle of this
 * thread. Why: much of a rebuild's time on SQLite is inserting rows and building indexes, which need
 * nothing of the projections; done on the second core, they overlap the projecting of the next batch.
 * A read sees what the thread has committed: the caller answers reads of writes still on their way
 * itself (RebuildBuffer does).
 *
 * Documents cross as JSON, serialized on this side (SerializedBatch: handing an object over would cost
 * as much, and the thread would serialize it again); the thread parses the values of its columns from it.
 */
export class CommitThread implements ReadStore {
  private readonly worker: Worker;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  private failure?: Error;
  private readonly exited: Promise<void>;

  /** A commit thread for `generation` of the views file at `path`, or undefined without a compiled worker. */
  static open(path: string, generation: number, reads: ReadStore): CommitThread | undefined {
    const script = compiledScript(__dirname, 'sqlite-commit-worker.js');
    return script ? new CommitThread(script, path, generation, reads) : undefined;
  }

  private constructor(
    script: string,
    path: string,
    generation: number,
    private readonly reads: ReadStore,
  ) {
    this.worker = new Worker(script, { workerData: { path, generation } });
    this.worker.on('message', (reply: CommitReply) => {
      const waiter = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      if (reply.ok) waiter?.resolve();
      else waiter?.reject(new Error(reply.message));
    });
    this.worker.on('error', (error) => this.fail(error));
    this.exited = new Promise((resolve) => {
      this.worker.on('exit', (code) => {
        this.fail(new Error(`the views' commit thread exited (code ${code})`));
        resolve();
      });
    });
  }

  commit(writes: Write[], checkpoint?: CheckpointWrite): Promise<void> {
    return this.call({ type: 'commit', batch: serializeBatch(writes), checkpoint });
  }

  ensureIndexes(indexes: IndexSpec[], options?: { deferred?: boolean }): Promise<void> {
    return this.call({ type: 'ensureIndexes', indexes, options });
  }

  clear(): Promise<void> {
    return this.call({ type: 'clear' });
  }

  async close(): Promise<void> {
    if (!this.failure) await this.call({ type: 'close' });
    await this.exited;
  }

  get<T extends Doc = Doc>(collection: string, id: string): Promise<T | null> {
    return this.reads.get<T>(collection, id);
  }

  find<T extends Doc = Doc>(collection: string, query: FindQuery): Promise<Page<T>> {
    return this.reads.find<T>(collection, query);
  }

  getCheckpoint(name: string): Promise<number> {
    return this.reads.getCheckpoint(name);
  }

  all<T extends Doc = Doc>(collection: string): Promise<T[]> {
    return this.reads.all<T>(collection);
  }

  collections(): Promise<string[]> {
    return this.reads.collections();
  }

  generation(): Promise<number> {
    return this.reads.generation();
  }

  createGeneration(): Promise<number> {
    return this.reads.createGeneration();
  }

  forGeneration(generation: number): ReadStore {
    return this.reads.forGeneration(generation);
  }

  forRebuild(generation: number): ReadStore {
    return this.reads.forRebuild(generation);
  }

  copyCollections(to: number, collections: string[], checkpoint: string): Promise<number> {
    return this.reads.copyCollections(to, collections, checkpoint);
  }

  promote(generation: number, options?: { checkpoint?: string }): Promise<boolean> {
    return this.reads.promote(generation, options);
  }

  private call(request: CommitRequest): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise<void>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      const message: CommitMessage = { ...request, id };
      this.worker.postMessage(message);
    });
  }

  /** The thread is gone: whatever it had not answered failed, and so does anything asked later. */
  private fail(error: Error): void {
    this.failure ??= error;
    for (const waiter of this.waiting.values()) waiter.reject(this.failure);
    this.waiting.clear();
  }
}
