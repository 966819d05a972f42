import Database from 'better-sqlite3';

const BUSY_TIMEOUT_MS = 5000;
const RETRY_PAUSE_MS = 10;

export interface OpenOptions {
  /** `FULL` fsyncs every commit (the log); `NORMAL` leaves the last commits to the OS (derived views). */
  synchronous: 'FULL' | 'NORMAL';
  /** Statements creating the schema, run once per open in a write transaction. */
  schema?: string;
}

/**
 * Opens a SQLite file in WAL mode, safely when several processes open the same new file at once
 * (cluster services on one data directory start together).
 */
export function openWalDatabase(path: string, options: OpenOptions): Database.Database {
  const db = new Database(path, { timeout: BUSY_TIMEOUT_MS });
  // Switching a new file to WAL takes an exclusive lock that SQLite does not wait for: while another
  // process converts the same file, the pragma fails with SQLITE_BUSY at once, so retry here.
  retryWhileBusy(() => db.pragma('journal_mode = WAL'));
  db.pragma(`synchronous = ${options.synchronous}`);
  // In a write transaction taken up front, so concurrent openers queue on the busy timeout instead of
  // failing on a read snapshot made stale by the other's schema change.
  if (options.schema) db.transaction(() => db.exec(options.schema as string)).immediate();
  return db;
}

function retryWhileBusy<T>(action: () => T): T {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      return action();
    } catch (error) {
      const code = (error as { code?: string }).code ?? '';
      if (!code.startsWith('SQLITE_BUSY') || Date.now() >= deadline) throw error;
      // A synchronous pause: this runs in constructors, before the process serves anything.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, RETRY_PAUSE_MS);
    }
  }
}
