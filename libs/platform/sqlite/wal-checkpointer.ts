import { Worker } from 'node:worker_threads';

/** How often the background thread moves committed WAL pages into the database file. */
const INTERVAL_MS = 50;

/**
 * WAL size (pages) at which a writing connection checkpoints by itself, on its own thread: a safety
 * net should the background thread fall behind; SQLite's default is 1,000.
 */
export const FALLBACK_AUTOCHECKPOINT_PAGES = 20_000;

/*
 * One thread per process, one connection per watched file. PASSIVE checkpoints never block writers or
 * readers and skip a round when another connection is checkpointing, so several processes sharing a
 * file (cluster services) can each run one. Plain JavaScript, so that it runs the same from dist/ and
 * under a test runner that compiles TypeScript in memory.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const files = new Map();
let timer;
function checkpointAll() {
  for (const db of files.values()) {
    try {
      db.pragma('wal_checkpoint(PASSIVE)');
    } catch {
      // Busy or locked for a moment: the next round catches up.
    }
  }
}
parentPort.on('message', (message) => {
  if (message.type === 'watch') {
    try {
      const db = new Database(message.path, { timeout: 5000 });
      // The checkpoint's own fsyncs follow this setting: as durable as the connection that wrote.
      db.pragma('synchronous = ' + message.synchronous);
      files.set(message.id, db);
      if (!timer) timer = setInterval(checkpointAll, workerData.intervalMs);
    } catch (error) {
      // The writers' own auto-checkpoints still run for this file.
      process.stderr.write('WAL checkpoints: cannot open ' + message.path + ': ' + error + '\\n');
    }
  } else if (message.type === 'unwatch') {
    const db = files.get(message.id);
    files.delete(message.id);
    try {
      db?.close();
    } finally {
      if (files.size === 0 && timer) timer = clearInterval(timer);
      parentPort.postMessage({ type: 'unwatched', id: message.id });
    }
  }
});
`;

/**
 * Checkpoints WAL files on a thread of their own. A commit that crosses the auto-checkpoint threshold
 * otherwise copies the WAL into the database file, and fsyncs it, on the thread that committed: the
 * event loop of a server, or the replay loop of a rebuild.
 */
class WalCheckpointer {
  private worker?: Worker;
  private nextId = 1;
  private readonly closing = new Map<number, () => void>();

  watch(path: string, synchronous: string): () => Promise<void> {
    const worker = this.start();
    const id = this.nextId++;
    worker.postMessage({ type: 'watch', id, path, synchronous });
    return () =>
      new Promise<void>((resolve) => {
        // A thread that is gone holds no connection any more.
        if (this.worker !== worker) return resolve();
        this.closing.set(id, resolve);
        // Someone waits for the answer: the process must live until it comes.
        worker.ref();
        worker.postMessage({ type: 'unwatch', id });
      });
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { driver: require.resolve('better-sqlite3'), intervalMs: INTERVAL_MS },
    });
    worker.on('message', (message: { type: string; id: number }) => {
      if (message.type !== 'unwatched') return;
      this.closing.get(message.id)?.();
      this.closing.delete(message.id);
      if (this.closing.size === 0) worker.unref();
    });
    worker.on('error', (error) => {
      // The writers' own auto-checkpoints carry on; a new thread starts with the next file watched.
      process.stderr.write(`WAL checkpoint thread failed: ${String(error)}\n`);
    });
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = undefined;
      for (const resolve of this.closing.values()) resolve();
      this.closing.clear();
    });
    // Never what keeps a process alive; after the listeners, since adding a 'message' listener refs the port again.
    worker.unref();
    this.worker = worker;
    return worker;
  }
}

const checkpointer = new WalCheckpointer();

/**
 * Checkpoints `path` in the background from now on and raises its writers' own threshold (see
 * FALLBACK_AUTOCHECKPOINT_PAGES) on `db`; the function returned stops it, once the thread's connection
 * to the file is closed.
 */
export function checkpointInBackground(
  db: { pragma(source: string): unknown },
  path: string,
  synchronous: string,
): () => Promise<void> {
  db.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
  return checkpointer.watch(path, synchronous);
}

/**
 * For a connection whose file is committed to, and checkpointed, by another thread of this process
 * (the standalone server's storage thread): a second background checkpointer would only contend with
 * that one, taking the file's checkpoints (and their fsyncs) twice as often for the same pages. Its own
 * rare commits keep the raised threshold, so none of them copies the WAL inline.
 */
export function checkpointElsewhere(db: { pragma(source: string): unknown }): () => Promise<void> {
  db.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
  return async () => {};
}

/** How a store's connection gets its checkpoints: in the background, or `elsewhere` (see above). */
export function startCheckpoints(
  db: { pragma(source: string): unknown },
  path: string,
  synchronous: string,
  elsewhere: boolean,
): () => Promise<void> {
  return elsewhere ? checkpointElsewhere(db) : checkpointInBackground(db, path, synchronous);
}
