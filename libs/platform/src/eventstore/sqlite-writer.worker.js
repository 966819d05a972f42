/*
 * The embedded event store's writer, on a worker thread: it runs each group commit (one transaction,
 * fsync'ed with synchronous=FULL) so that the fsync does not block the main thread's event loop.
 * Plain CommonJS so that it loads as it is, from the sources under Jest and from dist/ alike.
 *
 * In:  { id, batch: [{ stream, expected, events: [{ id, type, data, metadata }] }] }  (data, metadata as JSON)
 * Out: { id, outcomes: [{ ok: true, result } | { ok: false, error: { name, message, stream, expected, actual } }] }
 *      or { id, failed: { name, message } } when the whole transaction failed.
 */
const { parentPort, workerData } = require('node:worker_threads');
const Database = require('better-sqlite3');

const db = new Database(workerData.path, { timeout: 5000 });
// The main thread created the file and its schema and switched it to WAL before starting this thread.
db.pragma('synchronous = FULL');

const statements = {
  eventById: db.prepare('SELECT stream, revision, position FROM events WHERE id = ?'),
  streamRevision: db.prepare('SELECT revision FROM streams WHERE name = ?').pluck(),
  insertEvent: db.prepare(
    'INSERT INTO events (id, stream, revision, type, data, metadata) VALUES (?, ?, ?, ?, ?, ?)',
  ),
  upsertStream: db.prepare(
    'INSERT INTO streams (name, revision) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET revision = excluded.revision',
  ),
};

class WrongExpectedRevision extends Error {
  constructor(stream, expected, actual) {
    super(`stream ${stream}: expected revision ${expected}, actual ${actual}`);
    this.name = 'WrongExpectedRevisionError';
    this.stream = stream;
    this.expected = expected;
    this.actual = actual;
  }
}

/** The original result when every event is already stored in this stream; throws on a partial overlap. */
function findReplay(stream, events) {
  const found = events.map((event) => statements.eventById.get(event.id)).filter((row) => row !== undefined);
  if (found.length === 0) return undefined;
  const elsewhere = found.find((row) => row.stream !== stream);
  if (elsewhere)
    throw new Error(`stream ${stream}: an event id is already stored in stream ${elsewhere.stream}`);
  if (found.length < events.length) {
    throw new Error(`stream ${stream}: ${found.length} of ${events.length} event ids are already stored`);
  }
  const last = found.reduce((a, b) => (b.position > a.position ? b : a));
  return { nextRevision: last.revision, position: last.position };
}

function write({ stream, expected, events }) {
  const replay = findReplay(stream, events);
  if (replay) return replay;
  const current = statements.streamRevision.get(stream);
  if (expected !== 'any') {
    const ok = expected === 'no_stream' ? current === undefined : current === expected;
    if (!ok) throw new WrongExpectedRevision(stream, expected, current ?? 'no_stream');
  }
  let revision = current ?? -1;
  let position = 0;
  for (const event of events) {
    revision += 1;
    const info = statements.insertEvent.run(
      event.id,
      stream,
      revision,
      event.type,
      event.data,
      event.metadata,
    );
    position = Number(info.lastInsertRowid);
  }
  statements.upsertStream.run(stream, revision);
  return { nextRevision: revision, position };
}

// Nested transactions become savepoints, so one failing append rolls back only its own writes.
const appendOne = db.transaction(write);
const commit = db.transaction((batch) =>
  batch.map((append) => {
    try {
      return { ok: true, result: appendOne(append) };
    } catch (error) {
      return { ok: false, error: describe(error) };
    }
  }),
);

function describe(error) {
  const { name, message, stream, expected, actual } = error ?? {};
  return { name: String(name ?? 'Error'), message: String(message ?? error), stream, expected, actual };
}

parentPort.on('message', (message) => {
  if (message === 'close') {
    db.close();
    parentPort.close();
    return;
  }
  try {
    // IMMEDIATE takes the write lock up front, so a writer in another process makes us wait, not fail.
    parentPort.postMessage({ id: message.id, outcomes: commit.immediate(message.batch) });
  } catch (error) {
    parentPort.postMessage({ id: message.id, failed: describe(error) });
  }
});
