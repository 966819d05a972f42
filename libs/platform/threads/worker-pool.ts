import { type ResourceLimits, Worker } from 'node:worker_threads';

/** What a pool's worker script receives and answers, one task at a time. */
export type PoolRequest<In> = { id: number; input: In };
export type PoolReply<Out> =
  | { id: number; ok: true; output: Out }
  | { id: number; ok: false; message: string };

/**
 * Why a task did not complete: over its time, over its memory, failed in the script, the pool closed, or
 * too many tasks already waiting (`busy`, refused at once).
 */
export type TaskFailure = 'timeout' | 'memory' | 'failed' | 'closed' | 'busy';

export class TaskFailed extends Error {
  constructor(
    readonly reason: TaskFailure,
    message: string,
  ) {
    super(message);
    this.name = 'TaskFailed';
  }
}

export interface WorkerPoolOptions {
  /**
   * The compiled worker script (see `compiledScript`), or how to find it when the first thread starts;
   * it answers each `PoolRequest` with a `PoolReply`.
   */
  script: string | (() => string);
  /** Threads at most; each is started when a task needs it. */
  size: number;
  /** A task running longer ends its thread (and is refused); another thread takes the next task. */
  timeoutMs: number;
  /** Heap limits of each thread: a task that needs more ends its thread (and is refused). */
  resourceLimits: ResourceLimits;
  /**
   * Tasks waiting for a thread at most; one more is refused at once (`busy`) rather than queued behind
   * minutes of work, holding its request and its input's memory meanwhile.
   */
  maxWaiting: number;
  /**
   * Tasks handed to one thread ahead of its answers (1 when absent). A thread runs them one at a time;
   * handing it the next before its answer is read keeps it busy while the serving thread is, rather
   * than idle until the serving thread reads the answer and sends the next: with small tasks (a
   * comment's Markdown) under load, that wait is most of a task's time.
   */
  depth?: number;
}

interface Task<In, Out> {
  id: number;
  input: In;
  resolve(output: Out): void;
  reject(error: TaskFailed): void;
}

interface Slot<In, Out> {
  worker: Worker;
  /** Handed to the thread, in order; the first is the one it runs, timed by `timer`. */
  tasks: Task<In, Out>[];
  timer?: NodeJS.Timeout;
}

/**
 * A few worker threads that run tasks off the serving thread, each within a time and memory budget: a
 * task past its time has its thread terminated (whatever it is doing) and is refused; one past its
 * heap ends its thread the same way. The pool starts threads as tasks come and replaces those ended;
 * `close` terminates them all at once, so a process shuts down promptly whatever they are doing.
 */
export class WorkerPool<In, Out> {
  private readonly slots = new Set<Slot<In, Out>>();
  private readonly queue: Task<In, Out>[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: WorkerPoolOptions) {}

  run(input: In): Promise<Out> {
    if (this.closed) return Promise.reject(new TaskFailed('closed', 'the worker threads are closed'));
    if (this.queue.length >= this.options.maxWaiting)
      return Promise.reject(new TaskFailed('busy', `${this.queue.length} tasks are waiting for a thread`));
    return new Promise<Out>((resolve, reject) => {
      const task = { id: this.nextId++, input, resolve, reject };
      this.queue.push(task);
      try {
        this.dispatch();
      } catch (error) {
        // No thread could start (no compiled script): the task is refused rather than left waiting.
        const at = this.queue.indexOf(task);
        if (at >= 0) this.queue.splice(at, 1);
        reject(error);
      }
    });
  }

  /** Threads started and not ended (for tests and metrics). */
  get threads(): number {
    return this.slots.size;
  }

  /** Ends every thread now; tasks running or waiting are refused (`closed`). */
  async close(): Promise<void> {
    this.closed = true;
    const failure = () => new TaskFailed('closed', 'the server is shutting down');
    for (const task of this.queue.splice(0)) task.reject(failure());
    const workers: Worker[] = [];
    for (const slot of this.slots) {
      clearTimeout(slot.timer);
      for (const task of slot.tasks.splice(0)) task.reject(failure());
      workers.push(slot.worker);
    }
    this.slots.clear();
    await Promise.all(workers.map((worker) => worker.terminate()));
  }

  private dispatch(): void {
    while (this.queue.length > 0 && !this.closed) {
      const slot = this.leastBusy() ?? (this.slots.size < this.options.size ? this.spawn() : undefined);
      if (!slot) return;
      const task = this.queue.shift() as Task<In, Out>;
      slot.tasks.push(task);
      if (slot.tasks.length === 1) this.time(slot);
      slot.worker.postMessage({ id: task.id, input: task.input } satisfies PoolRequest<In>);
    }
  }

  /** A thread without a task, else (once every thread is started) the one with fewest, below the depth. */
  private leastBusy(): Slot<In, Out> | undefined {
    let best: Slot<In, Out> | undefined;
    for (const slot of this.slots) if (!best || slot.tasks.length < best.tasks.length) best = slot;
    if (best?.tasks.length === 0) return best;
    if (this.slots.size < this.options.size) return undefined;
    return best && best.tasks.length < (this.options.depth ?? 1) ? best : undefined;
  }

  /** Times the task the thread runs now: from when it became the first of the thread's tasks. */
  private time(slot: Slot<In, Out>): void {
    clearTimeout(slot.timer);
    slot.timer =
      slot.tasks.length > 0 ? setTimeout(() => this.end(slot, 'timeout'), this.options.timeoutMs) : undefined;
  }

  private spawn(): Slot<In, Out> {
    const { script } = this.options;
    const worker = new Worker(typeof script === 'function' ? script() : script, {
      resourceLimits: this.options.resourceLimits,
    });
    // An idle thread does not keep the process alive.
    worker.unref();
    const slot: Slot<In, Out> = { worker, tasks: [] };
    this.slots.add(slot);
    worker.on('message', (reply: PoolReply<Out>) => this.answered(slot, reply));
    worker.on('error', (error: Error & { code?: string }) =>
      this.end(slot, error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'memory' : 'failed', error.message),
    );
    worker.on('exit', () => this.end(slot, 'failed', 'the worker thread exited'));
    return slot;
  }

  private answered(slot: Slot<In, Out>, reply: PoolReply<Out>): void {
    const task = slot.tasks[0];
    if (!task || task.id !== reply.id) return;
    slot.tasks.shift();
    this.time(slot);
    if (reply.ok) task.resolve(reply.output);
    else task.reject(new TaskFailed('failed', reply.message));
    this.dispatch();
  }

  /**
   * Ends a slot's thread, refusing the task it ran with `reason`; the tasks handed to it behind that one
   * never started, and go back to the front of the queue for another thread.
   */
  private end(slot: Slot<In, Out>, reason: Exclude<TaskFailure, 'closed'>, message?: string): void {
    if (!this.slots.delete(slot)) return;
    clearTimeout(slot.timer);
    const [task, ...unstarted] = slot.tasks.splice(0);
    void slot.worker.terminate();
    this.queue.unshift(...unstarted);
    task?.reject(new TaskFailed(reason, message ?? `over its ${reason} budget`));
    this.dispatch();
  }
}

/**
 * The loop of a pool's worker script: answers each request with `work(input)` (or what it resolves to)
 * or its failure, one request at a time in the order they came (the pool may hand a thread several).
 */
export function servePoolTasks<In, Out>(
  port: {
    on(event: 'message', listener: (request: PoolRequest<In>) => void): unknown;
    postMessage(reply: PoolReply<Out>): void;
  },
  work: (input: In) => Out | Promise<Out>,
): void {
  let previous: Promise<void> = Promise.resolve();
  port.on('message', ({ id, input }) => {
    previous = previous.then(async () => {
      let reply: PoolReply<Out>;
      try {
        reply = { id, ok: true, output: await work(input) };
      } catch (error) {
        reply = { id, ok: false, message: error instanceof Error ? error.message : String(error) };
      }
      port.postMessage(reply);
    });
  });
}
