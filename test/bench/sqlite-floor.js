/*
 * The floor under B5: what SQLite alone needs, on one thread, for the work a rebuild of the benchmark
 * log cannot avoid, with no projection code at all. Run it beside a B5 result to see what bounds it:
 *
 *   node test/bench/sqlite-floor.js EVENTS.sqlite [EVENTS]
 *
 * In the rebuild's batches (20,000 events), as far as EVENTS (default: the whole log):
 * 1. reads the log and parses each event's JSON;
 * 2. builds one audit entry per event, shaped like the `audit_entries` view's rows (text primary key
 *    `<organization>:<event id>`, the JSON document, five field columns), and inserts them into a fresh
 *    file set up as SqliteReadStore sets up the views (WAL, synchronous NORMAL, 64 MB page cache);
 * then 3. builds the view's four indexes over them, as the rebuild does once the load is done.
 * Timed apart; the sum of 1, the inserts and 3 is what SQLite and the log's JSON take alone.
 *
 * With `--compact`, the rows are the cheapest an audit table with those four indexes could be: no JSON
 * document, keys in log order (`<position>:<organization>`, so every insert lands at the end of the
 * key's index) and indexes without the `id` tie-breaker. That bounds any redesign of the view's storage.
 */
const { mkdtempSync, rmSync } = require('node:fs');
const os = require('node:os');
const { join } = require('node:path');
const Database = require('better-sqlite3');

const args = process.argv.slice(2);
const compact = args.includes('--compact');
const [logPath, limitArg] = args.filter((arg) => arg !== '--compact');
const limit = limitArg ? Number(limitArg) : Number.POSITIVE_INFINITY;
if (!logPath) {
  process.stderr.write('usage: node test/bench/sqlite-floor.js [--compact] EVENTS.sqlite [EVENTS]\n');
  process.exit(2);
}
const BATCH = 20_000;
const seconds = (from) => Number(process.hrtime.bigint() - from) / 1e9;

/** The row an audit entry of `event` becomes: id, document, and the indexed fields' columns. */
function auditRow(event, organization) {
  const occurredAt = event.metadata.occurredAt;
  const doc = {
    id: compact
      ? `${String(event.position).padStart(16, '0')}:${organization}`
      : `${organization}:${event.id}`,
    organization,
    eventId: event.id,
    occurredAt,
    sortKey: `${occurredAt}|${String(event.position).padStart(16, '0')}`,
    action: event.type === 'SpaceCreated' ? 'space.created' : 'space.updated',
    actorType: 'user',
    actorId: event.metadata.actor.userId ?? 'system',
    actorLabel: 'Administrator',
    source: 'api',
    targetType: 'space',
    targetId: event.data.spaceId ?? event.data.id ?? event.stream,
    targetLabel: event.data.title ?? null,
    correlationId: event.metadata.correlationId,
    causedByEventId: null,
    schemaVersion: event.metadata.schemaVersion,
    payload: event.data,
  };
  return [
    doc.id,
    compact ? '' : JSON.stringify(doc),
    doc.organization,
    doc.sortKey,
    doc.action,
    doc.actorId,
    doc.targetId,
  ];
}

/** Streams the log in the rebuild's batches: read and parse, build the rows, insert; then the indexes. */
function floor() {
  const log = new Database(logPath, { readonly: true });
  const read = log.prepare(
    'SELECT position, id, stream, revision, type, data, metadata FROM events WHERE position > ? ORDER BY position LIMIT ?',
  );
  const dir = mkdtempSync(join(os.tmpdir(), 'sqlite-floor-'));
  const db = new Database(join(dir, 'views.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('cache_size = -65536');
  db.exec(
    'CREATE TABLE audit (id TEXT PRIMARY KEY, doc TEXT NOT NULL, "f:organization", "f:sortKey", "f:action", "f:actorId", "f:targetId")',
  );
  const insert = db.prepare('INSERT INTO audit VALUES (?, ?, ?, ?, ?, ?, ?)');
  const commit = db.transaction((rows) => {
    for (const row of rows) insert.run(...row);
  });
  const organizations = Array.from({ length: 10 }, (_, i) => `organization-${String(i).padStart(8, '0')}`);
  const spent = { read: 0, rows: 0, insert: 0 };
  const time = (phase, fn) => {
    const from = process.hrtime.bigint();
    const out = fn();
    spent[phase] += seconds(from);
    return out;
  };
  let events = 0;
  for (let after = 0; events < limit; ) {
    const batch = time('read', () =>
      read.all(after, BATCH).map((row) => ({
        id: row.id,
        stream: row.stream,
        position: row.position,
        type: row.type,
        data: JSON.parse(row.data),
        metadata: JSON.parse(row.metadata),
      })),
    );
    if (batch.length === 0) break;
    after = batch[batch.length - 1].position;
    events += batch.length;
    const rows = time('rows', () =>
      batch.map((event, i) => auditRow(event, organizations[i % organizations.length])),
    );
    time('insert', () => commit(rows));
  }
  log.close();
  const indexed = process.hrtime.bigint();
  for (const fields of [[], ['action'], ['actorId'], ['targetId']]) {
    const columns = ['organization', ...fields, 'sortKey'].map((f) => `"f:${f}"`).join(', ');
    db.exec(`CREATE INDEX "ix${fields.join('')}" ON audit (${columns}${compact ? '' : ', id'})`);
  }
  const indexSeconds = seconds(indexed);
  db.close();
  rmSync(dir, { recursive: true, force: true });
  return { events, ...spent, indexSeconds };
}

const result = floor();
const sqlite = result.read + result.insert + result.indexSeconds;
const round = (x) => +x.toFixed(2);
process.stdout.write(
  `${JSON.stringify({
    rows: compact ? 'compact' : 'as the view stores them',
    events: result.events,
    readAndParseSeconds: round(result.read),
    buildRowsSeconds: round(result.rows),
    insertSeconds: round(result.insert),
    indexSeconds: round(result.indexSeconds),
    readInsertIndexSeconds: round(sqlite),
    eventsPerSecondAtBest: Math.round(result.events / sqlite),
  })}\n`,
);
