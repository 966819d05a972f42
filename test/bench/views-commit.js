/*
 * What one audit entry costs the live views, by how many of the audit view's indexes exist: commits of
 * BATCH new audit-shaped documents (as a live projector batch writes them: marked created) through the
 * project's SqliteReadStore, over 10 organizations and 1,000 targets as in B3, after a warm-up.
 *
 *   node test/bench/views-commit.js [BATCH=38] [DOCUMENTS=180000]
 *
 * 38 is the events per views commit measured under B3's load. Prints microseconds per document for 0 to
 * 4 of the view's indexes, in their declared order; run it twice, the figures move by a few percent.
 */
const { mkdtempSync, rmSync } = require('node:fs');
const os = require('node:os');
const { join, resolve } = require('node:path');

const DIST = process.env.BENCH_DIST ?? resolve(__dirname, '../../dist');
const { SqliteReadStore } = require(join(DIST, 'libs/platform/readstore/sqlite-read-store'));
const { auditProjection, AUDIT_ENTRIES } = require(join(DIST, 'libs/audit/read/audit.projection'));

const batchSize = Number(process.argv[2] ?? 38);
const documents = Number(process.argv[3] ?? 180_000);

function entry(n) {
  const organization = `org${n % 10}`;
  const eventId = `0190f3a4-0000-7000-8000-${String(n).padStart(12, '0')}`;
  const id = `${organization}:${eventId}`;
  return {
    collection: AUDIT_ENTRIES,
    id,
    created: true,
    doc: {
      id,
      organization,
      eventId,
      occurredAt: '2026-11-25T10:00:00.000Z',
      sortKey: `2026-11-25T10:00:00.000Z|${String(n).padStart(16, '0')}`,
      action: 'space.updated',
      actorType: 'user',
      actorId: 'user0000000000000001',
      actorLabel: 'Bench',
      source: 'api',
      targetType: 'space',
      targetId: `space${String(n % 1000).padStart(15, '0')}`,
      targetLabel: `Title ${n}`,
      correlationId: eventId,
      causedByEventId: null,
      schemaVersion: 1,
      payload: { spaceId: `space${n % 1000}`, changes: { title: `Title ${n}` } },
    },
  };
}

async function measure(indexes) {
  const dir = mkdtempSync(join(os.tmpdir(), 'views-commit-'));
  const store = new SqliteReadStore({ path: join(dir, 'views.sqlite') });
  await store.ensureIndexes(auditProjection.indexes.slice(0, indexes));
  let n = 0;
  const batch = () => Array.from({ length: batchSize }, () => entry(n++));
  const rounds = Math.ceil(documents / batchSize);
  for (let i = 0; i < rounds / 3; i++) await store.commit(batch());
  const started = process.hrtime.bigint();
  for (let i = 0; i < rounds; i++) await store.commit(batch());
  const micros = Number(process.hrtime.bigint() - started) / 1000 / (rounds * batchSize);
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  return micros;
}

(async () => {
  for (let indexes = 0; indexes <= auditProjection.indexes.length; indexes++) {
    const micros = await measure(indexes);
    process.stdout.write(
      `${indexes} index(es), ${batchSize} per commit: ${micros.toFixed(1)} µs per entry\n`,
    );
  }
})();
