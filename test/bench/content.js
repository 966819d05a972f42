/*
 * The content benchmarks of `npm run bench` (B10–B13 and the storage of a revision), on their own
 * server and data directory. Spaces are filled through the API as a client would: change requests of
 * 50 inserted pages, merged.
 *
 *   space P: BENCH_CONTENT_PAGES (1,000) pages of about 2 KB of Markdown, in sections of 50
 *   space S: BENCH_SEARCH_PAGES (10,000) such pages, for search
 *
 * Knobs: BENCH_CONTENT_PAGES, BENCH_SEARCH_PAGES, BENCH_REVISIONS (10,000: how old the revision B13
 * reads is, and how many revisions B11 runs again on top of), BENCH_MERGE_WORKERS (4),
 * BENCH_STORAGE_MERGES (500).
 */
const { readFileSync, statSync, writeFileSync } = require('node:fs');
const { randomBytes } = require('node:crypto');
const { join } = require('node:path');
const Database = require('better-sqlite3');
const L = require('./lib');
const text = require('./text');

const { call, log, settled } = L;
const num = (name, fallback) => (process.env[name] ? Number(process.env[name]) : fallback);
const SIZES = {
  pages: num('BENCH_CONTENT_PAGES', 1000),
  searchPages: num('BENCH_SEARCH_PAGES', 10_000),
  revisions: num('BENCH_REVISIONS', 10_000),
  workers: num('BENCH_MERGE_WORKERS', 4),
  storageMerges: num('BENCH_STORAGE_MERGES', 500),
  importPages: num('BENCH_IMPORT_PAGES', 1800),
};
const SECTION = 50;
const PAGE_BYTES = 2000;
const MERGE_LOAD = join(__dirname, 'merge-load.js');
const SEARCH_QUERIES = 400_000;
/** B12's throughput target, at which its latency target is measured. */
const SEARCH_RATE = 500;

const NAMES = {
  B10: `\`getPageByPath\` in a space of ${L.fmtInt(SIZES.pages)} pages, random page, 100 connections`,
  B11: `one-page \`updateChangeRequestContent\` then merge, space of ${L.fmtInt(SIZES.pages)} pages`,
  B12: `search over ${L.fmtInt(SIZES.searchPages)} generated pages (about 2 KB of Markdown each)`,
  B13: `a page of a revision ${L.fmtInt(SIZES.revisions)} revisions old, random page, 100 connections`,
  STORE: `storage per one-page revision in a ${L.fmtInt(SIZES.pages)}-page space`,
  IMPORT: `server RSS while ${L.fmtInt(SIZES.importPages)} pages are written into one change request, 50 a request, and merged`,
};
const TARGETS = {
  B10: '≥ 45% of bare Fastify req/s; p99 ≤ 25 ms',
  B11: `≥ 100 merges/s; p99 ≤ 200 ms; within 20% with ${L.fmtInt(SIZES.revisions)} earlier revisions`,
  B12: '≥ 500 queries/s; p99 ≤ 50 ms at 500 queries/s',
  B13: 'p99 ≤ 25 ms',
  STORE: '< 10 KB plus the changed page',
  IMPORT: '≤ 2 × idle RSS plus what is in flight (a request; at the merge, the views the change makes)',
};

/* ------------------------------------------------------------------ filling spaces */

/** One change request with `changes`, merged; the ids of the pages it inserted. */
async function changeAndMerge(app, spaceId, changes) {
  const cr = await call(app, 'POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'Seed' }, 201);
  const base = `/v1/spaces/${spaceId}/change-requests/${cr.id}`;
  const written = await call(app, 'POST', `${base}/content?compat=false`, { changes }, 200);
  const merged = await call(app, 'POST', `${base}/merge`, undefined, 200);
  if (merged.result !== 'merge') throw new Error(`seeding merge answered ${merged.result}`);
  return written.changes.map((c) => c.page?.id);
}

const insert = (seed, title, into) => ({
  operation: 'insert_page',
  title,
  document: { markdown: text.pageMarkdown(seed, PAGE_BYTES) },
  ...(into ? { into } : {}),
});

/** A space of `pages` pages: sections of 50 (a section page and 49 pages under it). */
async function fillSpace(app, title, pages, seed) {
  const space = await call(app, 'POST', `/v1/orgs/${app.org}/spaces`, { title }, 201);
  const sections = Math.ceil(pages / SECTION);
  const started = Date.now();
  const sectionIds = [];
  for (let s = 0; s < sections; s += SECTION) {
    const batch = Array.from({ length: Math.min(SECTION, sections - s) }, (_, i) =>
      insert(seed + s + i, `Section ${s + i + 1} ${text.word(s + i)}`),
    );
    sectionIds.push(...(await changeAndMerge(app, space.id, batch)));
  }
  for (const [s, sectionId] of sectionIds.entries()) {
    const under = Math.min(SECTION - 1, pages - sections - s * (SECTION - 1));
    if (under <= 0) break;
    const batch = Array.from({ length: under }, (_, i) => {
      const n = s * SECTION + i;
      return insert(seed + 1000 + n, `Page ${n + 1} ${text.word(n % 2000)}`, sectionId);
    });
    await changeAndMerge(app, space.id, batch);
    if ((s + 1) % 20 === 0) log(`  ${title}: ${(s + 1) * SECTION} of ${L.fmtInt(pages)} pages`);
  }
  const tree = await call(app, 'GET', `/v1/spaces/${space.id}/content/pages`, undefined, 200);
  const documents = [];
  const walk = (list) => {
    for (const p of list) {
      if (p.type === 'document') documents.push({ id: p.id, path: p.path });
      walk(p.pages ?? []);
    }
  };
  walk(tree.pages);
  if (documents.length !== pages) throw new Error(`${title}: ${documents.length} pages instead of ${pages}`);
  const info = await call(app, 'GET', `/v1/spaces/${space.id}`, undefined, 200);
  log(`  ${title}: ${L.fmtInt(pages)} pages in ${L.fmt((Date.now() - started) / 1000)} s`);
  return { id: space.id, revision: info.revision, documents, seedMs: Date.now() - started, merges: 0 };
}

/* ------------------------------------------------------------------ measuring */

/** Where a table or index's bytes count: the log, or the view it belongs to. */
function partOf(file, table) {
  if (file === 'events.sqlite') return 'log';
  // A table `docs:NAME`, its primary key's index `sqlite_autoindex_docs:NAME_1`, or an index `ix["NAME",…]`.
  const name = /docs:(\w+?)(?:_\d+)?$|\["(\w+)"/.exec(table);
  const collection = name?.[1] ?? name?.[2] ?? '';
  if (collection === 'content_objects' || collection === 'revisions') return 'content views';
  if (collection.startsWith('audit_')) return 'audit log view';
  if (collection.startsWith('change_request')) return 'change request views';
  if (collection.startsWith('search_')) return 'search views';
  return 'other views';
}

/**
 * Bytes in use in the data directory's SQLite files by part (the log, groups of views): SQLite's own
 * count of each table's and index's bytes (dbstat), so free space in pages does not count.
 */
function storageOf(dataDir) {
  const out = {};
  for (const file of ['events.sqlite', 'views.sqlite']) {
    const db = new Database(join(dataDir, file), { readonly: true });
    for (const { name, bytes } of db
      .prepare('SELECT name, SUM(pgsize - unused) AS bytes FROM dbstat GROUP BY name')
      .all()) {
      const part = partOf(file, name);
      out[part] = (out[part] ?? 0) + bytes;
    }
    db.close();
  }
  return out;
}

async function mergeLoad(h, app, space, config) {
  const file = join(h.work, `merge-${++h.counter}.json`);
  const resultFile = `${file}.result.json`;
  writeFileSync(
    file,
    JSON.stringify({
      port: app.port,
      token: app.token,
      spaceId: space.id,
      pages: space.documents.map((d) => d.id),
      workers: SIZES.workers,
      bytes: PAGE_BYTES,
      tag: `b11-${h.counter}`,
      // Texts no earlier run wrote (see merge-load.js): a run is at most a few hundred thousand edits.
      textBase: h.counter * 1_000_000,
      ...config,
    }),
  );
  const run = await L.runNode([MERGE_LOAD, file, resultFile]);
  if (run.code !== 0) throw new Error(`merge-load failed (${run.code}): ${run.stderr}`);
  const result = JSON.parse(readFileSync(resultFile, 'utf8'));
  space.merges += result.merged;
  return result;
}

/** B11: a warm-up, then `runs` timed runs; the median by merges/s. */
async function b11(h, app, space, label) {
  await h.quiet(label);
  await mergeLoad(h, app, space, { seconds: h.CFG.warmup });
  const runs = [];
  for (let r = 1; r <= h.CFG.runs; r++) {
    const result = await mergeLoad(h, app, space, { seconds: h.CFG.seconds });
    runs.push(result);
    log(
      `${label} run ${r}/${h.CFG.runs}: ${L.fmt(result.mergesPerSec)} merges/s (${result.merged} merged, ` +
        `${result.conflicts} conflicts, ${result.failed} failed), update+merge p50 ${L.fmt(result.latency.p50)} ms, ` +
        `p99 ${L.fmt(result.latency.p99)} ms`,
    );
  }
  return { runs, median: L.medianRun(runs, 'mergesPerSec') };
}

/* ------------------------------------------------------------------ scenarios */

/** Bytes of the SQLite files of the views (the database and its write-ahead log). */
function viewFileBytes(dataDir) {
  return ['views.sqlite', 'views.sqlite-wal'].reduce((n, file) => {
    try {
      return n + statSync(join(dataDir, file)).size;
    } catch {
      return n;
    }
  }, 0);
}

/**
 * IMPORT, one run: what a large import costs the server in memory, on a server of its own: its RSS idle,
 * at its peak while the pages are written (a request of 50 in flight at a time), and at its peak while
 * the change request is merged and the merge projected; in flight, at most, every view the change makes
 * (what the views' files grew by, an upper estimate of the bytes written).
 */
async function importRun(h, run) {
  const token = `bench_${randomBytes(24).toString('hex')}`;
  const dataDir = join(h.work, `import-${run}`);
  const app = await h.startApp(dataDir, { token, label: `import-${run}` });
  try {
    const org = (await L.request(app.port, 'GET', '/v1/orgs', { token })).body.items[0].id;
    Object.assign(app, { token, org });
    const space = await call(app, 'POST', `/v1/orgs/${org}/spaces`, { title: 'Import' }, 201);
    await settled(app);
    await L.sleep(3000);
    const idle = L.memoryOf(app.pid).rss;
    const writing = L.sampleProcess(app.pid, 50);
    const started = Date.now();
    const cr = await call(app, 'POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Import' }, 201);
    const base = `/v1/spaces/${space.id}/change-requests/${cr.id}`;
    let markdownBytes = 0;
    let largestRequest = 0;
    for (let at = 0; at < SIZES.importPages; at += SECTION) {
      const changes = Array.from({ length: Math.min(SECTION, SIZES.importPages - at) }, (_, i) =>
        insert(500_000 + at + i, `Imported ${at + i + 1} ${text.word(at + i)}`),
      );
      markdownBytes += changes.reduce((n, c) => n + Buffer.byteLength(c.document.markdown), 0);
      largestRequest = Math.max(largestRequest, Buffer.byteLength(JSON.stringify({ changes })));
      await call(app, 'POST', `${base}/content?compat=false`, { changes }, 200);
    }
    await settled(app);
    const written = writing.stop();
    const viewsBefore = viewFileBytes(dataDir);
    const merging = L.sampleProcess(app.pid, 50);
    const merged = await call(app, 'POST', `${base}/merge`, undefined, 200);
    if (merged.result !== 'merge') throw new Error(`the import's merge answered ${merged.result}`);
    await settled(app);
    const merge = merging.stop();
    const result = {
      idle,
      writingPeak: written.peakRss,
      mergePeak: merge.peakRss,
      mergeViewBytes: viewFileBytes(dataDir) - viewsBefore,
      markdownBytes,
      largestRequest,
      ms: Date.now() - started,
    };
    const MiB = (bytes) => `${L.fmt(bytes / 2 ** 20, 0)} MiB`;
    log(
      `IMPORT run ${run}/${h.CFG.runs}: idle ${MiB(idle)}, writing ${MiB(result.writingPeak)}, merge ` +
        `${MiB(result.mergePeak)} (views +${MiB(result.mergeViewBytes)})`,
    );
    return result;
  } finally {
    await h.stop(app);
  }
}

/** IMPORT: runs on fresh servers; the median run by the merge's peak. */
async function importMemory(h) {
  const runs = [];
  for (let run = 1; run <= h.CFG.runs; run++) runs.push(await importRun(h, run));
  return { pages: SIZES.importPages, runs, ...L.medianRun(runs, 'mergePeak') };
}

/** B10–B13 and STORE, on one server and data directory. */
async function pageScenarios(results, h) {
  const dataDir = join(h.work, 'content');
  const token = `bench_${randomBytes(24).toString('hex')}`;
  const state = { app: await h.startApp(dataDir, { token, label: 'content' }) };
  const org = (await L.request(state.app.port, 'GET', '/v1/orgs', { token })).body.items[0].id;
  Object.assign(state.app, { token, org });
  const open = async (label) => {
    state.app = await h.startApp(dataDir, { port: state.app.port, token, label });
    Object.assign(state.app, { token, org });
  };
  h.counter = 0;

  log(`content: filling a space of ${L.fmtInt(SIZES.pages)} pages`);
  const P = await fillSpace(state.app, 'Pages', SIZES.pages, 1);
  results.content = { pages: SIZES.pages, seedMs: P.seedMs };

  if (h.wants('B10')) {
    await h.attempt(results, ['B10'], async () => {
      const bodies = {};
      const paths = P.documents.map((d) => `/v1/spaces/${P.id}/content/path/${encodeURIComponent(d.path)}`);
      await L.mapLimit(paths, 16, async (path) => {
        const res = await L.request(state.app.port, 'GET', path, { token });
        if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}`);
        bodies[path] = res.body;
      });
      results.content.pageBytes = Buffer.byteLength(JSON.stringify(bodies[paths[0]]));
      const bare = await h.startBare({ bodies }, 'bare-content');
      try {
        const same =
          (await L.request(state.app.port, 'GET', paths[0], { token })).text ===
          (await L.request(bare.port, 'GET', paths[0])).text;
        if (!same) throw new Error('the bare server does not answer the same page body');
        const config = () => ({ mode: 'get-paths', paths, token });
        results.B10 = await h.scenario('B10', [
          { kind: 'bare', server: bare, config },
          { kind: 'app', server: state.app, config },
        ]);
      } finally {
        await h.stop(bare);
      }
    });
  }

  if (h.wants('B11', 'B13', 'STORE')) {
    await h.attempt(results, ['B11', 'STORE', 'B13'], async () => {
      results.B11 = { fresh: await b11(h, state.app, P, 'B11') };

      log(`STORE: ${SIZES.storageMerges} one-page merges, one at a time, between two stops of the server`);
      await settled(state.app);
      await h.stop(state.app);
      const before = storageOf(dataDir);
      await open('content-store');
      const stored = await mergeLoad(h, state.app, P, { count: SIZES.storageMerges, workers: 1 });
      await settled(state.app);
      await h.stop(state.app);
      const after = storageOf(dataDir);
      await open('content-old');
      const parts = Object.fromEntries(
        Object.keys(after).map((part) => [part, (after[part] - (before[part] ?? 0)) / stored.merged]),
      );
      results.STORE = {
        merges: stored.merged,
        parts,
        pageBytes: Buffer.byteLength(text.pageMarkdown(1, PAGE_BYTES)),
      };

      const more = Math.max(0, SIZES.revisions - P.merges);
      log(
        `B11: ${L.fmtInt(more)} more merges, to ${L.fmtInt(SIZES.revisions)} revisions after the one B13 reads`,
      );
      const filled = Date.now();
      const topUp = await mergeLoad(h, state.app, P, { count: more });
      results.B11.topUp = { merges: topUp.merged, ms: Date.now() - filled, failed: topUp.failed };
      await settled(state.app);
      results.B11.revisionsBefore = P.merges;
      results.B11.old = await b11(h, state.app, P, 'B11 (old space)');

      if (h.wants('B13')) {
        const paths = P.documents.map((d) => `/v1/spaces/${P.id}/revisions/${P.revision}/page/${d.id}`);
        const check = await L.request(state.app.port, 'GET', paths[0], { token });
        if (check.status !== 200) throw new Error(`GET ${paths[0]} answered ${check.status}`);
        results.B13 = await h.scenario('B13', [
          { kind: 'app', server: state.app, config: () => ({ mode: 'get-paths', paths, token }) },
        ]);
        results.B13.age = P.merges;
      }
    });
  }

  if (h.wants('B12')) {
    await h.attempt(results, ['B12'], async () => {
      log(`content: filling a space of ${L.fmtInt(SIZES.searchPages)} pages for search`);
      const S = await fillSpace(state.app, 'Search', SIZES.searchPages, 100_000);
      await settled(state.app);
      // More distinct queries than a run sends: the response cache, which would answer repeats, misses.
      const queries = text.queries(7, SEARCH_QUERIES);
      const paths = queries.map((q) => `/v1/spaces/${S.id}/search?query=${encodeURIComponent(q)}`);
      let found = 0;
      await L.mapLimit(paths.slice(0, 200), 8, async (path) => {
        const res = await L.request(state.app.port, 'GET', path, { token });
        if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}`);
        if (res.body.items.length > 0) found++;
      });
      results.B12 = await h.scenario('B12', [
        { kind: 'app', server: state.app, config: () => ({ mode: 'get-paths', paths, token }) },
      ]);
      // The latency target holds at the throughput target: queries sent at that rate, open loop.
      results.B12.paced = await h.scenario(`B12 at ${SEARCH_RATE} queries/s`, [
        {
          kind: 'app',
          server: state.app,
          config: () => ({ mode: 'get-paths', paths, token, rate: SEARCH_RATE }),
        },
      ]);
      results.B12.seedMs = S.seedMs;
      // A query drawn twice in a run may be answered from the cache: at most this share of the requests.
      const sent = Math.max(...results.B12.runs.app.map((r) => r.total));
      results.B12.repeats = 1 - (SEARCH_QUERIES * (1 - Math.exp(-sent / SEARCH_QUERIES))) / sent;
      results.B12.found = found / 200;
    });
  }
  await h.stop(state.app);
}

async function contentScenarios(results, h) {
  if (h.wants('B10', 'B11', 'B12', 'B13', 'STORE')) await pageScenarios(results, h);
  if (h.wants('IMPORT')) {
    log(
      `IMPORT: ${L.fmtInt(SIZES.importPages)} pages written into one change request and merged, on a server of its own`,
    );
    await h.attempt(results, ['IMPORT'], async () => {
      results.IMPORT = await importMemory(h);
    });
  }
}

/* ------------------------------------------------------------------ report */

function evaluateContent(results, row) {
  const ms = (v) => `${L.fmt(v)} ms`;
  const { B10, B11, B12, B13, STORE, IMPORT } = results;
  if (B10) {
    row(
      'B10',
      NAMES.B10,
      `${L.fmtInt(B10.app.okPerSec)} req/s; p50 ${ms(B10.app.p50)}, p99 ${ms(B10.app.p99)}`,
      `${L.fmtInt(B10.bare.okPerSec)} req/s; p50 ${ms(B10.bare.p50)}, p99 ${ms(B10.bare.p99)}`,
      `${L.pct(B10.ratio)} of req/s; p99 ×${L.fmt(B10.app.p99 / B10.bare.p99)}`,
      TARGETS.B10,
      B10.ratio >= 0.45 && B10.app.p99 <= 25 && B10.app.non2xx === 0 && B10.app.errors === 0,
      `page body ${L.fmtInt(results.content.pageBytes)} bytes`,
    );
  }
  if (B11?.fresh && B11.old) {
    const a = B11.fresh.median;
    const b = B11.old.median;
    const drift = b.mergesPerSec / a.mergesPerSec - 1;
    const lost = [...B11.fresh.runs, ...B11.old.runs].reduce((n, r) => n + r.failed + r.conflicts, 0);
    row(
      'B11',
      NAMES.B11,
      `${L.fmt(a.mergesPerSec)} merges/s, p50 ${ms(a.latency.p50)}, p99 ${ms(a.latency.p99)}; after ` +
        `${L.fmtInt(B11.revisionsBefore)} revisions: ${L.fmt(b.mergesPerSec)} merges/s, p99 ${ms(b.latency.p99)}`,
      '—',
      `${drift >= 0 ? '+' : ''}${L.pct(drift)} with the older space`,
      TARGETS.B11,
      a.mergesPerSec >= 100 &&
        a.latency.p99 <= 200 &&
        b.mergesPerSec >= 100 &&
        b.latency.p99 <= 200 &&
        Math.abs(drift) <= 0.2 &&
        lost === 0,
      `${SIZES.workers} workers, each editing its own pages; latency of update + merge (create apart: p99 ` +
        `${ms(a.create.p99)}); failed or conflicting cycles: ${lost}`,
    );
  }
  if (B12) {
    const paced = B12.paced.app;
    const clean = (r) => r.non2xx === 0 && r.errors === 0;
    row(
      'B12',
      NAMES.B12,
      `${L.fmtInt(B12.app.okPerSec)} queries/s (p50 ${ms(B12.app.p50)}, p99 ${ms(B12.app.p99)}); at ` +
        `${SEARCH_RATE} queries/s: p50 ${ms(paced.p50)}, p99 ${ms(paced.p99)}`,
      '—',
      '—',
      TARGETS.B12,
      B12.app.okPerSec >= SEARCH_RATE &&
        paced.okPerSec >= SEARCH_RATE * 0.97 &&
        paced.p99 <= 50 &&
        clean(B12.app) &&
        clean(paced),
      `throughput with 100 connections, each sending its next query on an answer; latency with queries sent at ${SEARCH_RATE}/s (Poisson arrivals, counted from when each was due, over at most 100 connections); ${L.fmtInt(SEARCH_QUERIES)} distinct queries of 1 to 3 words (cache hits: ${L.pct(B12.repeats)} of requests at most); ${L.pct(B12.found)} of them find pages; filled in ${L.fmt(B12.seedMs / 1000, 0)} s`,
    );
  }
  if (B13) {
    row(
      'B13',
      NAMES.B13,
      `${L.fmtInt(B13.app.okPerSec)} req/s; p50 ${ms(B13.app.p50)}, p99 ${ms(B13.app.p99)}`,
      '—',
      '—',
      TARGETS.B13,
      B13.app.p99 <= 25 && B13.app.non2xx === 0 && B13.app.errors === 0 && B13.age >= SIZES.revisions,
      `the revision read is ${L.fmtInt(B13.age)} merges behind the head`,
    );
  }
  if (STORE) {
    const total = Object.values(STORE.parts).reduce((a, b) => a + b, 0);
    const parts = Object.entries(STORE.parts)
      .sort(([, a], [, b]) => b - a)
      .map(([part, bytes]) => `${part} ${L.fmtInt(bytes)}`)
      .join(', ');
    row(
      'STORE',
      NAMES.STORE,
      `${L.fmtInt(total)} bytes (${parts}); the page: ${L.fmtInt(STORE.pageBytes)} bytes of Markdown`,
      '—',
      '—',
      TARGETS.STORE,
      total - STORE.pageBytes < 10_000,
      `mean over ${STORE.merges} merges (each a change request created, edited and merged): bytes of SQLite's tables and indexes after a stop, minus before`,
    );
  }
  if (IMPORT) {
    const MiB = (bytes) => `${L.fmt(bytes / 2 ** 20, 0)} MiB`;
    const writingBound = 2 * IMPORT.idle + IMPORT.largestRequest;
    const mergeBound = 2 * IMPORT.idle + IMPORT.mergeViewBytes;
    row(
      'IMPORT',
      NAMES.IMPORT,
      `idle ${MiB(IMPORT.idle)}; writing: peak ${MiB(IMPORT.writingPeak)} (${L.fmt(IMPORT.writingPeak / IMPORT.idle)} × idle); merge: peak ${MiB(IMPORT.mergePeak)} (${L.fmt(IMPORT.mergePeak / IMPORT.idle)} × idle)`,
      '—',
      '—',
      TARGETS.IMPORT,
      IMPORT.writingPeak <= writingBound && IMPORT.mergePeak <= mergeBound,
      `median of ${IMPORT.runs.length} runs by the merge's peak (merge peaks ${IMPORT.runs.map((r) => MiB(r.mergePeak)).join(', ')}); bounds: ${MiB(writingBound)} while writing (largest request ${L.fmtInt(IMPORT.largestRequest)} bytes), ${MiB(mergeBound)} at the merge (its views: ${MiB(IMPORT.mergeViewBytes)}; the change: ${MiB(IMPORT.markdownBytes)} of Markdown); VmRSS sampled every 50 ms`,
    );
  }
}

function contentDetails(results) {
  const lines = [];
  const B11 = results.B11;
  if (B11?.fresh) {
    lines.push(
      '### B11',
      '',
      '| space | run | merges/s | merged | conflicts | failed | update+merge p50 ms | p99 ms | max ms | create p99 ms | update p99 ms | merge p99 ms |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    );
    for (const [label, set] of [
      ['fresh', B11.fresh],
      ['old', B11.old],
    ]) {
      set?.runs.forEach((r, i) => {
        lines.push(
          `| ${label} | ${i + 1} | ${L.fmt(r.mergesPerSec)} | ${r.merged} | ${r.conflicts} | ${r.failed} | ${L.fmt(r.latency.p50)} | ${L.fmt(r.latency.p99)} | ${L.fmt(r.latency.max, 0)} | ${L.fmt(r.create.p99)} | ${L.fmt(r.update.p99)} | ${L.fmt(r.merge.p99)} |`,
        );
      });
    }
    if (B11.topUp) {
      lines.push(
        '',
        `Between the two: ${L.fmtInt(B11.topUp.merges)} more merges in ${L.fmt(B11.topUp.ms / 1000)} s (${B11.topUp.failed} failed).`,
      );
    }
    lines.push('');
  }
  return lines;
}

/** The Method bullets of BENCHMARKS.md for these scenarios. */
function method(CFG) {
  return [
    `- Content (\`test/bench/content.js\`, its own server and data directory): a space of ${L.fmtInt(SIZES.pages)} pages and one of`,
    `  ${L.fmtInt(SIZES.searchPages)}, filled through the API with change requests of 50 inserted pages (about 2 KB of generated`,
    '  Markdown each, `test/bench/text.js`: words of a 20,000-word vocabulary drawn with a Zipf-like law), in sections of',
    '  50 (a section page and 49 pages under it), each merged.',
    '- B10: `GET /v1/spaces/{id}/content/path/{path}` for a random page; the bare server answers the same bodies by URL.',
    `- B11: \`test/bench/merge-load.js\`, ${SIZES.workers} workers each looping create change request, one \`update_page\` of one of its own`,
    '  pages (new Markdown generated as the pages were), merge; the latency is the update plus the merge. Run on the',
    `  fresh space, then again after the space has taken ${L.fmtInt(SIZES.revisions)} merges; each time a ${CFG.warmup} s warm-up and`,
    `  ${CFG.runs} runs of ${CFG.seconds} s, the median by merges/s. Every run writes texts no earlier run wrote: one that`,
    '  wrote a page its text again would change nothing.',
    `- B12: \`GET /v1/spaces/{id}/search?query=…\`, a random one of ${L.fmtInt(SEARCH_QUERIES)} distinct queries of one to three words drawn`,
    '  from ranks 10 to 5,000: more than a run sends, so that the response cache (which answers a repeated GET) rarely can.',
    `  Throughput with 100 connections as fast as answers come; then the latency with queries sent at ${SEARCH_RATE}/s, the`,
    '  throughput target, open loop (`test/bench/paced-load.js`: Poisson arrivals, each counted from when it was due). With',
    '  100 connections always waiting, every query waits for the 99 ahead of it: that p99 measures the queue the load',
    '  generator keeps full, not how long a query takes at the target rate.',
    '- B13: `GET /v1/spaces/{id}/revisions/{revisionId}/page/{pageId}` of the revision the space had when filled,',
    `  read after the ${L.fmtInt(SIZES.revisions)} merges of B11.`,
    `- Storage: ${SIZES.storageMerges} one-page merges one at a time; the server is stopped before and after, and the bytes in`,
    "  use in its SQLite files (each table's and index's, from SQLite's dbstat) are compared, by part; divided by the merges.",
    `- Import: a fresh server; ${L.fmtInt(SIZES.importPages)} pages of about 2 KB of Markdown inserted into one change request, 50 a`,
    '  request, then merged (as `import:gitsync` writes a repository). Idle RSS 3 s after the space is created; the peak',
    '  while writing and the peak from the merge until the views hold it; in flight, at most, every view the change',
    "  makes (what the views' SQLite files grew by; its projection holds 8 MB of them at most before writing them out).",
    "  The median of the runs by the merge's peak.",
  ];
}

module.exports = {
  NAMES,
  TARGETS,
  SIZES,
  contentScenarios,
  evaluateContent,
  contentDetails,
  method,
  fillSpace,
};
