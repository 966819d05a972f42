/*
 * Writes a realistic event log straight into the embedded event store file (DIR/events.sqlite):
 * the schema is created by the application's own SqliteEventStore (from dist/, or BENCH_DIST), then rows are inserted
 * with better-sqlite3 in large transactions. The log is what the API would have written: a user with an
 * API token (the given bootstrap token), organizations administered by that user, spaces
 * (SpaceCreated) and then edits (SpaceUpdated: title, emoji, edit mode) on random spaces, each with the
 * envelope CommandRunner writes (UUID id, schema version, occurredAt, actor, correlation, causation).
 *
 *   node test/bench/gen-log.js DIR [EVENTS=1000000] [TOKEN]
 */
require('reflect-metadata');
const { createHash, randomBytes, randomUUID } = require('node:crypto');
const { v7: uuidv7 } = require('uuid');
const { mkdirSync } = require('node:fs');
const { join, resolve } = require('node:path');
const Database = require('better-sqlite3');

const DIST = process.env.BENCH_DIST ?? resolve(__dirname, '../../dist');
const { SqliteEventStore } = require(join(DIST, 'libs/platform/eventstore/sqlite-event-store'));

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const ORGANIZATIONS = 10;
/** One event in ten creates a space; the rest edit one. */
const SPACE_SHARE = 0.1;
const SCHEMA_VERSION = 1;
const EMOJIS = ['📘', '📗', '📕', '🚀', '🧭', '🛠️', '📐', ''];

let idPool = randomBytes(0);
let idAt = 0;
/** A 20-character base62 id, the shape newId() produces. */
function newId() {
  let out = '';
  while (out.length < 20) {
    if (idAt >= idPool.length) {
      idPool = randomBytes(1 << 16);
      idAt = 0;
    }
    const b = idPool[idAt++];
    if (b < 248) out += ALPHABET[b % 62];
  }
  return out;
}

async function createSchema(path) {
  const store = new SqliteEventStore({ path });
  await store.close();
}

async function generate(dir, total = 1_000_000, token = 'bench-token-bench-token-bench-token') {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'events.sqlite');
  await createSchema(path);
  const db = new Database(path);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -262144');
  const insert = db.prepare(
    'INSERT INTO events (id, stream, revision, type, data, metadata) VALUES (?, ?, ?, ?, ?, ?)',
  );

  const start = Date.now() - 30 * 24 * 3600 * 1000;
  let clock = start;
  const userId = newId();
  const tokenId = newId();
  const revisions = new Map();
  let count = 0;
  /** Time moves one second per command; the data and the envelope of one command share it. */
  const tick = () => {
    clock += 1000;
  };
  const envelope = (source, causationId = null) =>
    JSON.stringify({
      schemaVersion: SCHEMA_VERSION,
      occurredAt: new Date(clock).toISOString(),
      actor: source === 'system' ? { source } : { userId, tokenId, source },
      correlationId: randomUUID(),
      causationId,
    });
  const append = (stream, type, data, metadata) => {
    const revision = (revisions.get(stream) ?? -1) + 1;
    revisions.set(stream, revision);
    // Time-ordered ids of the command's time, as the application's newEventId makes them.
    insert.run(uuidv7({ msecs: clock }), stream, revision, type, JSON.stringify(data), metadata);
    count += 1;
  };

  // The bootstrap: a user and its token (the hash of `token`), as bootstrapIfEmpty writes them.
  const at = () => new Date(clock).toISOString();
  db.transaction(() => {
    tick();
    const userStream = `user-${userId}`;
    append(
      userStream,
      'UserCreated',
      { userId, displayName: 'Administrator', email: 'admin@localhost', createdAt: at() },
      envelope('system'),
    );
    const tokenHash = createHash('sha256').update(token).digest('hex');
    append(
      userStream,
      'ApiTokenIssued',
      { userId, tokenId, tokenHash, label: 'bootstrap', issuedAt: at() },
      envelope('system'),
    );
  })();

  const organizations = [];
  db.transaction(() => {
    for (let i = 0; i < ORGANIZATIONS; i++) {
      tick();
      const organizationId = newId();
      organizations.push({ id: organizationId, next: 1 });
      const stream = `organization-${organizationId}`;
      const meta = envelope('api');
      append(
        stream,
        'OrganizationCreated',
        {
          organizationId,
          title: `Organization ${i + 1}`,
          emailDomains: [],
          createdBy: userId,
          createdAt: at(),
        },
        meta,
      );
      append(stream, 'MemberAdded', { organizationId, userId, role: 'admin', joinedAt: at() }, meta);
    }
  })();

  const spaces = [];
  const BATCH = 100_000;
  while (count < total) {
    db.transaction(() => {
      const end = Math.min(total, count + BATCH);
      while (count < end) {
        tick();
        if (spaces.length === 0 || Math.random() < SPACE_SHARE) {
          const org = organizations[spaces.length % ORGANIZATIONS];
          const id = newId();
          spaces.push(id);
          const metadata = envelope('api');
          append(
            `space-${id}`,
            'SpaceCreated',
            {
              id,
              organization: org.id,
              parent: null,
              title: `Space ${spaces.length}`,
              emoji: EMOJIS[spaces.length % EMOJIS.length],
              editMode: 'live',
              defaultLevel: 'inherit',
              visibility: 'private',
              revision: newId(),
              position: org.next++,
              createdAt: new Date(clock).toISOString(),
            },
            metadata,
          );
        } else {
          const id = spaces[Math.floor(Math.random() * spaces.length)];
          const metadata = envelope('api');
          const r = Math.random();
          const changes =
            r < 0.8
              ? { title: `Edited title ${count}` }
              : r < 0.95
                ? { emoji: EMOJIS[count % EMOJIS.length] }
                : { editMode: count % 2 ? 'locked' : 'live' };
          append(
            `space-${id}`,
            'SpaceUpdated',
            { spaceId: id, changes, updatedAt: new Date(clock).toISOString() },
            metadata,
          );
        }
      }
    })();
    process.stderr.write(
      `  generated ${count.toLocaleString('en-US')} / ${total.toLocaleString('en-US')} events\n`,
    );
  }
  db.pragma('journal_mode = WAL');
  db.close();
  return {
    path,
    events: count,
    spaces: spaces.length,
    organizations: ORGANIZATIONS,
    streams: revisions.size,
  };
}

module.exports = { generate };

if (require.main === module) {
  const [dir, total, token] = process.argv.slice(2);
  const started = Date.now();
  generate(dir, total ? Number(total) : undefined, token).then(
    (summary) => {
      process.stdout.write(`${JSON.stringify({ ...summary, ms: Date.now() - started })}\n`);
    },
    (error) => {
      process.stderr.write(`${error.stack}\n`);
      process.exit(1);
    },
  );
}
