/*
 * `npm run bench`: measures the standalone server against the targets of the performance issue and
 * writes BENCHMARKS.md. Not part of `npm test`.
 *
 * Everything runs on loopback, in a temporary data directory; artifacts (server logs, CPU profiles,
 * raw results) go to .tmp/bench/. Environment knobs (defaults follow the rules of the issue):
 *   BENCH_SECONDS=10 BENCH_WARMUP_SECONDS=3 BENCH_RUNS=3 BENCH_CONNECTIONS=100 BENCH_SPACES=1000
 *   BENCH_EVENTS=1000000 BENCH_REBUILD_RUNS=3 BENCH_STARTS=3 BENCH_JOBS=10000 BENCH_JOB_RUNS=3
 *   BENCH_LOG_LEVEL=info (the server's LOG_LEVEL)   BENCH_PROFILE=1 (profile every missed target;
 *   BENCH_PROFILE=all profiles every HTTP and log scenario, met or not)
 *   BENCH_ONLY=B1,B5,...   (subset; the report then goes to .tmp/bench/BENCHMARKS.partial.md)
 *   BENCH_KEEP=1           (keep the temporary data directory)
 */
const { randomBytes } = require('node:crypto');
const {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} = require('node:fs');
const os = require('node:os');
const { join, relative } = require('node:path');
const Database = require('better-sqlite3');
const L = require('./lib');
const { sidesTable } = require('./rebuild-split');
const profiles = require('./profile');
const content = require('./content');
const access = require('./access');
const comments = require('./comments');
const sites = require('./sites');

const { ROOT, log } = L;
const env = process.env;
const num = (name, fallback) => (env[name] ? Number(env[name]) : fallback);
const CFG = {
  seconds: num('BENCH_SECONDS', 10),
  warmup: num('BENCH_WARMUP_SECONDS', 3),
  runs: num('BENCH_RUNS', 3),
  connections: num('BENCH_CONNECTIONS', 100),
  spaces: num('BENCH_SPACES', 1000),
  events: num('BENCH_EVENTS', 1_000_000),
  rebuildRuns: num('BENCH_REBUILD_RUNS', 3),
  starts: num('BENCH_STARTS', 3),
  jobs: num('BENCH_JOBS', 10_000),
  jobRuns: num('BENCH_JOB_RUNS', 3),
  logLevel: env.BENCH_LOG_LEVEL || 'info',
  profile: env.BENCH_PROFILE !== '0',
  profileAll: env.BENCH_PROFILE === 'all',
  only: env.BENCH_ONLY ? new Set(env.BENCH_ONLY.split(',').map((s) => s.trim().toUpperCase())) : null,
  keep: env.BENCH_KEEP === '1',
};
const wants = (...names) => !CFG.only || names.some((n) => CFG.only.has(n));

const ARTIFACTS = join(ROOT, '.tmp', 'bench');
/*
 * Several people rebuild dist/ while this runs; every process of one run uses this copy of it, taken at
 * the start (it stays inside the repository so that node_modules/ resolves as from dist/).
 */
const DIST = join(ARTIFACTS, 'dist');
process.env.BENCH_DIST = DIST;
// The rate limit stays on (its counting is part of every request's cost), but above what this one client
// sends: its default, a million requests a minute per token, is within reach of B10's 33 s at 35,000 req/s,
// after which B11–B13 met 429s.
process.env.RATE_LIMIT_MAX ??= '1000000000';
const SERVER = join(DIST, 'apps/standalone/src/main.js');
const CLI = join(DIST, 'apps/cli/src/main.js');
const LOAD = join(__dirname, 'load.js');
const BARE = join(__dirname, 'bare-server.js');
const EXIT_HOOK = join(__dirname, 'exit-on-sigterm.js');
const MB = 1e6;
const IDLE_CPU_SECONDS = 0.5;
const GiB = 1024 ** 3;

const started = new Date();
const work = mkdtempSync(join(os.tmpdir(), 'docs-hub-bench-'));
const running = new Set();
let loadCounter = 0;

/* ------------------------------------------------------------------ processes */

async function startApp(dataDir, { port, token, nodeArgs = [], label = 'app' } = {}) {
  const p = port ?? (await L.freePort());
  const proc = L.startProcess([SERVER], {
    env: {
      PORT: String(p),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      BOOTSTRAP_TOKEN: token,
      LOG_LEVEL: CFG.logLevel,
    },
    logFile: join(ARTIFACTS, `${label}.log`),
    nodeArgs,
  });
  running.add(proc);
  proc.exited.then(() => running.delete(proc));
  const ready = await L.waitForHttp(p, '/ready', { since: proc.startedAt, exited: proc.exited });
  return { ...proc, port: p, readyMs: ready.ms, readyBody: ready.body };
}

/** The bare Fastify ceiling serving `fixture` (see bare-server.js). */
async function startBare(fixture, label = 'bare') {
  const file = join(work, `${label}-fixture.json`);
  writeFileSync(file, JSON.stringify(fixture));
  const port = await L.freePort();
  const proc = L.startProcess([BARE], {
    env: { PORT: String(port), BARE_FIXTURE: file },
    logFile: join(ARTIFACTS, `${label}.log`),
  });
  running.add(proc);
  await L.waitForHttp(port, '/ready', { exited: proc.exited });
  return { ...proc, port };
}

async function stop(proc, signal = 'SIGTERM') {
  if (!proc) return;
  await L.stopProcess(proc, signal);
  running.delete(proc);
}

/* ------------------------------------------------------------------ errors */

const NAMES = {
  B1: '`GET /v1/spaces/{id}` with auth, random id over 1,000 spaces, 100 connections',
  B2: '`GET /v1/orgs/{id}/spaces?limit=100`',
  B3: '`PATCH /v1/spaces/{id}` random ids over 1,000 spaces, 100 connections; every 2xx durable and visible',
  B4: 'the same PATCH, all 100 connections on one space',
  B5: 'rebuild all read models from a log of 1,000,000 events',
  B6: 'standalone start-up to ready with that 1,000,000-event log',
  B7: 'jobs: 10,000 purge jobs through BullMQ on local Redis, enqueue to done',
  RSS: 'idle RSS after start-up / RSS during B1',
  ...access.NAMES,
  ...content.NAMES,
  ...comments.NAMES,
  ...sites.NAMES,
};
const TARGETS = {
  B1: '≥ 50% of bare Fastify req/s; p99 ≤ 25 ms',
  B2: '≥ 30% of bare Fastify serving the same body',
  B3: '≥ 5,000 writes/s (about 20% of bare Fastify); p99 ≤ 50 ms',
  B4: 'no 5xx; throughput and conflict rate reported',
  B5: '≥ 50,000 events/s; peak RSS ≤ 1 GiB',
  B6: '≤ 2 s (no replay at start)',
  B7: '≥ 50% of the jobs/s BullMQ reaches with an empty processor in the same run',
  RSS: '≤ 200 MB / ≤ 400 MB',
  ...access.TARGETS,
  ...content.TARGETS,
  ...comments.TARGETS,
  ...sites.TARGETS,
};
const ORDER = Object.keys(NAMES);

/**
 * Runs one part of the benchmark; a failure (others change the server while this runs) is recorded
 * against `names` and reported as such instead of ending the whole run.
 */
async function attempt(results, names, fn) {
  try {
    return await fn();
  } catch (error) {
    const message = String(error?.stack ?? error)
      .split('\n')
      .slice(0, 4)
      .map((l) => l.trim())
      .join(' ');
    for (const n of names) results.errors[n] ??= message;
    log(`${names.join('/')} failed: ${message}`);
    return undefined;
  }
}

/* ------------------------------------------------------------------ HTTP load */

/**
 * The machine is shared: before a scenario, wait (at most BENCH_QUIET_WAIT seconds, default 20) until
 * the whole machine has used less than half a core over one second.
 */
async function quiet(name) {
  const deadline = Date.now() + num('BENCH_QUIET_WAIT', 20) * 1000;
  for (let waited = false; ; waited = true) {
    const a = L.machineCpu();
    await L.sleep(1000);
    const busy = L.machineCpu().busy - a.busy;
    if (busy < 0.5) return;
    if (Date.now() > deadline) {
      log(`${name}: the machine is still busy (${L.fmt(busy, 2)} cores used by others); going ahead`);
      return;
    }
    if (!waited) log(`${name}: waiting for the machine to be quiet (${L.fmt(busy, 2)} cores busy)`);
  }
}

/** One autocannon run in its own process, with the server's memory and CPU sampled meanwhile. */
async function load(server, config, seconds) {
  loadCounter += 1;
  const configFile = join(work, `load-${loadCounter}.json`);
  const resultFile = join(work, `load-${loadCounter}.result.json`);
  writeFileSync(
    configFile,
    JSON.stringify({ connections: CFG.connections, ...config, port: server.port, seconds }),
  );
  const sampler = L.sampleProcess(server.pid, 100);
  const machine0 = L.machineCpu();
  const run = await L.runNode([LOAD, configFile, resultFile]);
  const machine1 = L.machineCpu();
  const sampled = sampler.stop();
  if (run.code !== 0) throw new Error(`load generator failed (${run.code}): ${run.stderr}`);
  const result = JSON.parse(readFileSync(resultFile, 'utf8'));
  const wall = run.wallMs / 1000;
  const busy = (machine1.busy - machine0.busy) / wall;
  const serverCores = sampled.cpuSeconds / wall;
  const loadCores = (run.cpu?.total ?? 0) / wall;
  return {
    ...result,
    peakRss: sampled.peakRss,
    hwm: sampled.hwm,
    serverCores,
    loadCores,
    otherCores: Math.max(0, busy - serverCores - loadCores),
  };
}

/**
 * Warm-up, then `runs` measured runs alternating bare and application, so that both see the same
 * machine conditions. `after(result, run)` runs after each measured application run.
 */
async function scenario(name, targets, after) {
  const out = { app: [], bare: [] };
  await quiet(name);
  log(`${name}: warm-up ${CFG.warmup} s on each server`);
  for (const t of targets) await load(t.server, t.config('warm'), CFG.warmup);
  for (let r = 1; r <= CFG.runs; r++) {
    for (const t of targets) {
      const result = await load(t.server, t.config(`r${r}`), CFG.seconds);
      out[t.kind].push(result);
      log(
        `${name} run ${r}/${CFG.runs} ${t.kind.padEnd(4)}: ${L.fmtInt(result.okPerSec)} 2xx/s, ` +
          `p50 ${L.fmt(result.latency.p50)} ms, p99 ${L.fmt(result.latency.p99)} ms, non-2xx ${result.non2xx}, ` +
          `errors ${result.errors}, server RSS ${L.fmt(result.peakRss / MB, 0)} MB, CPU cores: server ${L.fmt(result.serverCores, 2)}, ` +
          `load ${L.fmt(result.loadCores, 2)}, others ${L.fmt(result.otherCores, 2)}`,
      );
      if (t.kind === 'app' && after) result.check = await after(result, r);
    }
  }
  return summarizeScenario(out);
}

function summarizeScenario(out) {
  const summary = { runs: out };
  for (const kind of ['app', 'bare']) {
    if (out[kind].length === 0) continue;
    const runs = out[kind];
    summary[kind] = {
      okPerSec: L.median(runs.map((r) => r.okPerSec)),
      p50: L.median(runs.map((r) => r.latency.p50)),
      p99: L.median(runs.map((r) => r.latency.p99)),
      peakRss: Math.max(...runs.map((r) => r.peakRss)),
      serverCores: L.median(runs.map((r) => r.serverCores)),
      loadCores: L.median(runs.map((r) => r.loadCores)),
      otherCores: L.median(runs.map((r) => r.otherCores)),
      non2xx: runs.reduce((a, r) => a + r.non2xx, 0),
      // autocannon counts every timeout as an error as well.
      errors: runs.reduce((a, r) => a + r.errors, 0),
      timeouts: runs.reduce((a, r) => a + r.timeouts, 0),
      statusCodes: runs.reduce((acc, r) => {
        for (const [code, n] of Object.entries(r.statusCodes)) acc[code] = (acc[code] ?? 0) + n;
        return acc;
      }, {}),
      total: runs.reduce((a, r) => a + r.total, 0),
    };
  }
  if (summary.app && summary.bare) summary.ratio = summary.app.okPerSec / summary.bare.okPerSec;
  return summary;
}

/* ------------------------------------------------------------------ B3 checks */

/** GETs every space written in the run and checks it shows one of the writes that may be last. */
async function checkVisible(port, token, recordFile) {
  const { spaces } = JSON.parse(readFileSync(recordFile, 'utf8'));
  const ids = Object.keys(spaces);
  const failures = [];
  await L.mapLimit(ids, 16, async (id) => {
    const res = await L.request(port, 'GET', `/v1/spaces/${id}`, { token });
    const title = res.body?.title;
    if (res.status !== 200 || !spaces[id].includes(title)) {
      failures.push({ id, status: res.status, title, expected: spaces[id].slice(0, 3) });
    }
  });
  return { checked: ids.length, failures: failures.length, examples: failures.slice(0, 3) };
}

/** Every title a PATCH was answered 2xx for is in the log (read from the events file directly). */
function checkInLog(dataDir, titles) {
  const db = new Database(join(dataDir, 'events.sqlite'), { readonly: true });
  const stored = new Set(
    db
      .prepare("SELECT json_extract(data, '$.changes.title') FROM events WHERE type = 'SpaceUpdated'")
      .pluck()
      .all(),
  );
  db.close();
  const missing = [...titles].filter((t) => !stored.has(t));
  return { checked: titles.size, missing: missing.length, examples: missing.slice(0, 3) };
}

/* ------------------------------------------------------------------ scenarios */

async function httpScenarios(results) {
  const dataDir = join(work, 'app');
  const token = `bench_${randomBytes(24).toString('hex')}`;
  log(`starting the standalone server on an empty data directory (${dataDir})`);
  let app = await startApp(dataDir, { token });
  const orgs = await L.request(app.port, 'GET', '/v1/orgs', { token });
  if (orgs.status !== 200) throw new Error(`GET /v1/orgs answered ${orgs.status}: ${orgs.text}`);
  const org = orgs.body.items[0].id;

  log(`seeding ${CFG.spaces} spaces through POST /v1/orgs/{id}/spaces`);
  const seedStart = Date.now();
  const ids = await L.mapLimit(
    Array.from({ length: CFG.spaces }, (_, i) => i),
    8,
    async (i) => {
      const res = await L.request(app.port, 'POST', `/v1/orgs/${org}/spaces`, {
        token,
        body: { title: `Space ${i + 1}`, emoji: '📘' },
      });
      if (res.status !== 201) throw new Error(`seeding: POST answered ${res.status}: ${res.text}`);
      return res.body.id;
    },
  );
  results.seed = { spaces: ids.length, ms: Date.now() - seedStart };
  log(`seeded ${ids.length} spaces in ${L.fmt(results.seed.ms / 1000)} s; restarting the server`);

  await stop(app);
  app = await startApp(dataDir, { port: app.port, token });
  await L.sleep(3000);
  results.idle = { rss: L.memoryOf(app.pid).rss, readyMs: app.readyMs, afterMs: 3000 };
  log(`idle RSS after start-up: ${L.fmt(results.idle.rss / MB, 0)} MB`);

  // The bodies the application serves, which the bare server then serves too.
  const spaces = {};
  await L.mapLimit(ids, 16, async (id) => {
    const res = await L.request(app.port, 'GET', `/v1/spaces/${id}`, { token });
    if (res.status !== 200) throw new Error(`GET space answered ${res.status}`);
    spaces[id] = res.body;
  });
  const list = await L.request(app.port, 'GET', `/v1/orgs/${org}/spaces?limit=100`, { token });
  if (list.status !== 200 || list.body.items.length !== 100) throw new Error(`list answered ${list.status}`);
  const bare = await startBare({ spaces, list: list.body });

  // The bare server must answer byte for byte what the application answers.
  const sameSpace =
    (await L.request(app.port, 'GET', `/v1/spaces/${ids[0]}`, { token })).text ===
    (await L.request(bare.port, 'GET', `/v1/spaces/${ids[0]}`)).text;
  const sameList =
    (await L.request(app.port, 'GET', `/v1/orgs/${org}/spaces?limit=100`, { token })).text ===
    (await L.request(bare.port, 'GET', `/v1/orgs/${org}/spaces?limit=100`)).text;
  results.sameBodies = { space: sameSpace, list: sameList, listBytes: Buffer.byteLength(list.text) };
  results.spaceBytes = Buffer.byteLength(JSON.stringify(spaces[ids[0]]));
  log(`bare server answers identical bodies: space ${sameSpace}, list ${sameList}`);

  const both = (config) => [
    { kind: 'bare', server: bare, config: (tag) => config(tag, true) },
    { kind: 'app', server: app, config: (tag) => config(tag, false) },
  ];

  if (wants('B1', 'RSS')) {
    await attempt(results, ['B1', 'RSS'], async () => {
      results.B1 = await scenario(
        'B1',
        both(() => ({ mode: 'get-space', ids, token })),
      );
    });
  }
  if (wants('B2')) {
    await attempt(results, ['B2'], async () => {
      results.B2 = await scenario(
        'B2',
        both(() => ({ mode: 'list', org, token })),
      );
    });
  }
  if (wants('B3')) await attempt(results, ['B3'], () => b3());
  if (wants('B4')) await attempt(results, ['B4'], () => b4());
  await stop(bare);
  await stop(app);
  return { dataDir, token, org, ids };

  async function b3() {
    const titles = new Set();
    let lastRecord;
    results.B3 = await scenario(
      'B3',
      both((tag, isBare) => ({
        mode: 'patch-random',
        ids,
        token,
        tag: `b3${isBare ? 'b' : 'a'}${tag}`,
        recordFile: isBare || tag === 'warm' ? undefined : join(work, `b3-${tag}.writes.json`),
      })),
      async (_result, r) => {
        const recordFile = join(work, `b3-r${r}.writes.json`);
        for (const t of JSON.parse(readFileSync(recordFile, 'utf8')).titles2xx) titles.add(t);
        lastRecord = recordFile;
        const visible = await checkVisible(app.port, token, recordFile);
        log(
          `B3 run ${r}: GET after the run shows the last write on ${visible.checked - visible.failures}/${visible.checked} spaces`,
        );
        return visible;
      },
    );
    log('B3: killing the server (SIGKILL), restarting it, checking every acknowledged write');
    await stop(app, 'SIGKILL');
    app = await startApp(dataDir, { port: app.port, token, label: 'app-after-crash' });
    const afterCrash = await checkVisible(app.port, token, lastRecord);
    const inLog = checkInLog(dataDir, titles);
    results.B3.durability = { afterCrash, inLog };
    log(
      `B3 after crash: ${afterCrash.checked - afterCrash.failures}/${afterCrash.checked} spaces show their last write; ` +
        `${inLog.checked - inLog.missing}/${inLog.checked} acknowledged writes are in the log`,
    );
  }

  async function b4() {
    const created = await L.request(app.port, 'POST', `/v1/orgs/${org}/spaces`, {
      token,
      body: { title: 'Contended space' },
    });
    const hot = created.body.id;
    results.B4 = await scenario(
      'B4',
      both((tag, isBare) => ({
        mode: 'patch-one',
        spaceId: isBare ? ids[0] : hot,
        token,
        tag: `b4${isBare ? 'b' : 'a'}${tag}`,
        recordFile: isBare || tag === 'warm' ? undefined : join(work, `b4-${tag}.writes.json`),
      })),
      (_result, r) => checkVisible(app.port, token, join(work, `b4-r${r}.writes.json`)),
    );
    const stream = new Database(join(dataDir, 'events.sqlite'), { readonly: true })
      .prepare('SELECT MAX(revision) FROM events WHERE stream = ?')
      .pluck()
      .get(`space-${hot}`);
    results.B4.streamLength = stream + 1;
  }
}

async function profileHttp(results, ctx, names, configOf) {
  for (const name of names) {
    const dir = join(ARTIFACTS, 'profiles', name);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    log(`${name}: profiling the server (--cpu-prof) under the same load for ${CFG.seconds} s`);
    const app = await startApp(ctx.dataDir, {
      token: ctx.token,
      nodeArgs: ['--cpu-prof', '--cpu-prof-dir', dir, '-r', EXIT_HOOK],
      label: `app-profile-${name}`,
    });
    const config =
      configOf?.(name) ??
      {
        B1: { mode: 'get-space', ids: ctx.ids, token: ctx.token },
        B2: { mode: 'list', org: ctx.org, token: ctx.token },
        B3: { mode: 'patch-random', ids: ctx.ids, token: ctx.token, tag: 'b3prof' },
        B4: { mode: 'patch-one', spaceId: ctx.ids[1], token: ctx.token, tag: 'b4prof' },
      }[name];
    // Warmed up as the measured runs are, so that the profile shows the steady state and not the first
    // write to each space folding its stream.
    await load(app, { ...config, tag: `${config.tag ?? name}-warm` }, CFG.warmup);
    const fromMs = Number(process.hrtime.bigint() - app.startedAt) / 1e6;
    const run = await load(app, config, CFG.seconds);
    await stop(app);
    results.profiles[name] = { ...profileOf(dir, fromMs), underProfiler: run };
  }
}

function profileOf(dir, fromMs = 0) {
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')) : [];
  if (files.length === 0) return { error: `no profile written in ${dir}` };
  // One profile per thread: the busiest one is where the work is (a CLI rebuild runs on a thread of its own).
  const summaries = files.map((file) => profiles.summarize(join(dir, file), { fromMs }));
  const busy = (summary) => summary.totalMs * (1 - summary.idlePct);
  return { summary: summaries.reduce((a, b) => (busy(b) > busy(a) ? b : a)) };
}

/**
 * Head of the log and the checkpoints stored in the views file (projector, reactions), read directly.
 * The views file layout is the read store's business and changes; this accepts `checkpoints` and
 * generation-prefixed `g<n>:checkpoints` tables (the newest generation wins) and gives up quietly.
 */
function checkpoints(dataDir) {
  const out = {};
  try {
    const events = new Database(join(dataDir, 'events.sqlite'), { readonly: true });
    out.head = events.prepare('SELECT COALESCE(MAX(position), 0) FROM events').pluck().get();
    events.close();
    const views = new Database(join(dataDir, 'views.sqlite'), { readonly: true });
    const tables = views
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name LIKE '%checkpoints'")
      .pluck()
      .all()
      .map((name) => ({ name, generation: Number(/^g(\d+):checkpoints$/.exec(name)?.[1] ?? 1) }))
      .filter((t) => t.name === 'checkpoints' || t.generation > 1)
      .sort((a, b) => b.generation - a.generation);
    if (tables.length > 0) {
      const quoted = `"${tables[0].name.replaceAll('"', '""')}"`;
      for (const row of views.prepare(`SELECT name, position FROM ${quoted}`).all())
        out[row.name] = row.position;
    }
    views.close();
  } catch (error) {
    out.error = error.message;
  }
  return out;
}

async function logScenarios(results) {
  const dataDir = join(work, 'log');
  const token = `bench_${randomBytes(24).toString('hex')}`;
  log(`B5: generating a log of ${L.fmtInt(CFG.events)} events in ${dataDir}`);
  const gen = await L.runNode([join(__dirname, 'gen-log.js'), dataDir, String(CFG.events), token], {
    echo: true,
  });
  if (gen.code !== 0) throw new Error(`gen-log failed: ${gen.stderr}`);
  results.log = { ...JSON.parse(gen.stdout.trim().split('\n').pop()), wallMs: gen.wallMs };

  if (wants('B5', 'B6')) {
    const B5 = { runs: [] };
    for (let r = 1; r <= CFG.rebuildRuns; r++) {
      log(`B5: rebuild run ${r}/${CFG.rebuildRuns} (node ${CLI} rebuild)`);
      const run = await L.runNode([CLI, 'rebuild'], {
        env: { DATA_DIR: dataDir, LOG_LEVEL: CFG.logLevel },
        logFile: join(ARTIFACTS, 'rebuild.log'),
      });
      const m = /rebuilt from (\d+) events in ([\d.]+) s \((\d+) events\/s\)/.exec(run.stdout);
      if (run.code !== 0 || !m) throw new Error(`rebuild failed (${run.code}): ${run.stdout}\n${run.stderr}`);
      const result = {
        events: Number(m[1]),
        seconds: Number(m[2]),
        rate: Number(m[3]),
        wallMs: run.wallMs,
        wallRate: Number(m[1]) / (run.wallMs / 1000),
        peakRss: Math.max(run.peakRss, run.hwm),
        cpu: run.cpu,
        writeBytes: run.writeBytes,
      };
      B5.runs.push(result);
      log(
        `B5: ${L.fmtInt(result.events)} events in ${L.fmt(result.seconds)} s = ${L.fmtInt(result.rate)} events/s ` +
          `(whole command ${L.fmt(result.wallMs / 1000)} s), peak RSS ${L.fmt(result.peakRss / MB, 0)} MB, ` +
          `written ${L.fmt(result.writeBytes / 1e9, 1)} GB`,
      );
    }
    B5.median = L.medianRun(B5.runs, 'rate');
    // The memory target holds for every run, not only the median one.
    B5.peakRss = Math.max(...B5.runs.map((r) => r.peakRss));
    results.B5 = B5;
    // The views as the rebuild left them, so that a profiled start can again be the first one after it.
    snapshotViews(dataDir, join(work, 'views-after-rebuild'));
  }

  if (wants('B6')) {
    const B6 = { runs: [] };
    for (let r = 1; r <= CFG.starts; r++) {
      const before = checkpoints(dataDir);
      const app = await startApp(dataDir, { token, label: 'app-1m' });
      const cpuAtReady = L.cpuSecondsOf(app.pid);
      await L.sleep(3000);
      const cpuAfter = L.cpuSecondsOf(app.pid);
      const run = {
        readyMs: app.readyMs,
        head: app.readyBody?.log?.head,
        projected: app.readyBody?.log?.projected,
        before,
        cpuAtReady,
        cpuNext3s: cpuAfter - cpuAtReady,
        rss: L.memoryOf(app.pid).rss,
      };
      await stop(app);
      run.after = checkpoints(dataDir);
      B6.runs.push(run);
      log(
        `B6 start ${r}/${CFG.starts}: /ready after ${L.fmtInt(run.readyMs)} ms (head ${run.head}, projected ${run.projected}); ` +
          `CPU in the next 3 s ${L.fmt(run.cpuNext3s, 2)} s; reactor checkpoint ${before['reaction:space-purge-scheduler'] ?? 0} before start`,
      );
    }
    B6.readyMs = L.median(B6.runs.map((r) => r.readyMs));
    results.B6 = B6;
  }
  return { dataDir, token };
}

function snapshotViews(from, to) {
  rmSync(to, { recursive: true, force: true });
  mkdirSync(to, { recursive: true });
  for (const f of readdirSync(from)) if (f.startsWith('views.sqlite')) cpSync(join(from, f), join(to, f));
}

function restoreViews(from, to) {
  for (const f of readdirSync(to)) if (f.startsWith('views.sqlite')) rmSync(join(to, f));
  for (const f of readdirSync(from)) cpSync(join(from, f), join(to, f));
}

async function profileLog(results, ctx, names) {
  if (names.includes('B6')) {
    const dir = join(ARTIFACTS, 'profiles', 'B6');
    rmSync(dir, { recursive: true, force: true });
    const snapshot = join(work, 'views-after-rebuild');
    if (existsSync(snapshot)) restoreViews(snapshot, ctx.dataDir);
    log('B6: profiling the first start after the rebuild and 5 s after ready (--cpu-prof)');
    const app = await startApp(ctx.dataDir, {
      token: ctx.token,
      nodeArgs: ['--cpu-prof', '--cpu-prof-dir', dir, '-r', EXIT_HOOK],
      label: 'app-1m-profile',
    });
    await L.sleep(5000);
    await stop(app);
    results.profiles.B6 = profileOf(dir);
  }
  if (names.includes('B5')) {
    const dir = join(ARTIFACTS, 'profiles', 'B5');
    rmSync(dir, { recursive: true, force: true });
    const seconds = num('BENCH_REBUILD_PROFILE_SECONDS', 30);
    log(`B5: profiling the first ${seconds} s of a rebuild (--cpu-prof)`);
    const proc = L.startProcess(['--cpu-prof', '--cpu-prof-dir', dir, '-r', EXIT_HOOK, CLI, 'rebuild'], {
      env: { DATA_DIR: ctx.dataDir, LOG_LEVEL: CFG.logLevel },
      logFile: join(ARTIFACTS, 'rebuild-profile.log'),
    });
    running.add(proc);
    const timer = setTimeout(() => proc.child.kill('SIGTERM'), seconds * 1000);
    await proc.exited;
    clearTimeout(timer);
    running.delete(proc);
    results.profiles.B5 = { ...profileOf(dir), sides: await rebuildSides(ctx.dataDir) };
  }
}

/** One more rebuild of the log in `dataDir`, timed by side (`rebuild-split.js`). */
async function rebuildSides(dataDir) {
  log('B5: one more rebuild with every call into the log and the read store timed (rebuild-split.js)');
  const run = await L.runNode([join(__dirname, 'rebuild-split.js'), dataDir], {
    logFile: join(ARTIFACTS, 'rebuild-split.log'),
  });
  const line = run.stdout.split('\n').find((l) => l.startsWith('RESULT '));
  if (run.code !== 0 || !line) return { error: `rebuild-split.js failed (${run.code}): ${run.stderr}` };
  return JSON.parse(line.slice('RESULT '.length));
}

async function startRedis() {
  const port = await L.freePort();
  const dir = join(work, 'redis');
  mkdirSync(dir, { recursive: true });
  const proc = L.startProcess(
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    { command: 'redis-server', logFile: join(ARTIFACTS, 'redis.log') },
  );
  running.add(proc);
  const { Redis } = require('ioredis');
  const deadline = Date.now() + 10_000;
  for (;;) {
    const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0 });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.ping();
      client.disconnect();
      break;
    } catch (error) {
      client.disconnect();
      if (Date.now() > deadline) throw error;
      await L.sleep(100);
    }
  }
  return { ...proc, url: `redis://127.0.0.1:${port}` };
}

/** One jobs.js run; `concurrency` undefined = as the project configures it (purge) or 1 (baseline). */
async function jobsRun(redis, mode, concurrency, nodeArgs = []) {
  const data = join(work, `jobs-${Date.now()}`);
  mkdirSync(data, { recursive: true });
  const common = ['--jobs', String(CFG.jobs), '--redis', redis.url, '--data', data];
  if (concurrency !== undefined) common.push('--concurrency', String(concurrency));
  if (mode === 'purge') {
    const seed = await L.runNode([join(__dirname, 'jobs.js'), 'seed', ...common]);
    if (seed.code !== 0) throw new Error(`jobs seed failed: ${seed.stderr}`);
  }
  const run = await L.runNode([...nodeArgs, join(__dirname, 'jobs.js'), mode, ...common], {
    logFile: join(ARTIFACTS, 'jobs.log'),
  });
  rmSync(data, { recursive: true, force: true });
  const line = run.stdout.split('\n').find((l) => l.startsWith('RESULT '));
  if (run.code !== 0 || !line) throw new Error(`jobs ${mode} failed (${run.code}): ${run.stderr}`);
  return { ...JSON.parse(line.slice(7)), peakRss: run.peakRss };
}

/**
 * Pairs of (purge with the queue as openStorage configures it, empty processor at the same worker
 * concurrency), then one pair at another concurrency for comparison.
 */
async function jobScenarios(results) {
  const redis = await startRedis();
  log(`B7: private redis-server at ${redis.url}`);
  results.B7 = { runs: [], variant: null };
  try {
    for (let r = 1; r <= CFG.jobRuns; r++) {
      const purge = await jobsRun(redis, 'purge');
      const baseline = await jobsRun(redis, 'baseline', purge.concurrency);
      results.B7.runs.push({ baseline, purge, ratio: purge.jobsPerSec / baseline.jobsPerSec });
      log(
        `B7 run ${r}/${CFG.jobRuns} (worker concurrency ${purge.concurrency}): empty processor ${L.fmtInt(baseline.jobsPerSec)} jobs/s, ` +
          `purge ${L.fmtInt(purge.jobsPerSec)} jobs/s (${L.pct(purge.jobsPerSec / baseline.jobsPerSec)}), all purged: ${purge.verified}`,
      );
    }
    results.B7.median = L.medianRun(results.B7.runs, 'ratio');
    const configured = results.B7.median.purge.concurrency;
    const other = configured === 1 ? 16 : 1;
    const purge = await jobsRun(redis, 'purge', other);
    const baseline = await jobsRun(redis, 'baseline', other);
    results.B7.variant = {
      concurrency: other,
      baseline,
      purge,
      ratio: purge.jobsPerSec / baseline.jobsPerSec,
    };
    log(
      `B7 with concurrency ${other} on both sides (for comparison): empty ${L.fmtInt(baseline.jobsPerSec)} jobs/s, ` +
        `purge ${L.fmtInt(purge.jobsPerSec)} jobs/s (${L.pct(results.B7.variant.ratio)})`,
    );
    const med = results.B7.median;
    if (CFG.profile && !(med.ratio >= 0.5 && med.purge.verified)) {
      const dir = join(ARTIFACTS, 'profiles', 'B7');
      rmSync(dir, { recursive: true, force: true });
      log('B7: profiling the purge jobs (--cpu-prof)');
      const run = await jobsRun(redis, 'purge', undefined, ['--cpu-prof', '--cpu-prof-dir', dir]);
      results.profiles.B7 = { ...profileOf(dir, run.startedAtMs), underProfiler: run };
    }
  } finally {
    await stop(redis);
  }
}

/* ------------------------------------------------------------------ targets */

function evaluate(results) {
  const rows = [];
  const row = (id, scenario, measured, bare, ratio, target, pass, note = '') => {
    if (results.errors[id]) return;
    rows.push({ id, scenario, measured, bare, ratio, target, pass, note });
  };
  for (const [id, message] of Object.entries(results.errors)) {
    if (!NAMES[id]) continue;
    rows.push({
      id,
      scenario: NAMES[id],
      measured: `ERROR: ${message}`,
      bare: '—',
      ratio: '—',
      target: TARGETS[id],
      pass: false,
    });
  }
  const ms = (v) => `${L.fmt(v)} ms`;
  const rps = (v) => `${L.fmtInt(v)} req/s`;
  const B1 = results.B1;
  if (B1) {
    row(
      'B1',
      '`GET /v1/spaces/{id}` with auth, random id over 1,000 spaces, 100 connections',
      `${rps(B1.app.okPerSec)}; p50 ${ms(B1.app.p50)}, p99 ${ms(B1.app.p99)}`,
      `${rps(B1.bare.okPerSec)}; p50 ${ms(B1.bare.p50)}, p99 ${ms(B1.bare.p99)}`,
      `${L.pct(B1.ratio)} of req/s; p99 ×${L.fmt(B1.app.p99 / B1.bare.p99)}`,
      '≥ 50% of bare Fastify req/s; p99 ≤ 25 ms',
      B1.ratio >= 0.5 && B1.app.p99 <= 25 && B1.app.non2xx === 0 && B1.app.errors === 0,
      B1.app.non2xx || B1.app.errors ? `${B1.app.non2xx} non-2xx, ${B1.app.errors} errors` : '',
    );
  }
  const B2 = results.B2;
  if (B2) {
    row(
      'B2',
      '`GET /v1/orgs/{id}/spaces?limit=100`',
      `${rps(B2.app.okPerSec)}; p50 ${ms(B2.app.p50)}, p99 ${ms(B2.app.p99)}`,
      `${rps(B2.bare.okPerSec)}; p50 ${ms(B2.bare.p50)}, p99 ${ms(B2.bare.p99)}`,
      `${L.pct(B2.ratio)} of req/s; p99 ×${L.fmt(B2.app.p99 / B2.bare.p99)}`,
      '≥ 30% of bare Fastify serving the same body',
      B2.ratio >= 0.3 && B2.app.non2xx === 0 && B2.app.errors === 0,
      `body ${L.fmtInt(results.sameBodies?.listBytes)} bytes`,
    );
  }
  const B3 = results.B3;
  if (B3) {
    const visible = B3.runs.app.reduce((a, r) => a + (r.check?.failures ?? 0), 0);
    const { afterCrash, inLog } = B3.durability;
    const codes5xx = Object.entries(B3.app.statusCodes).filter(([c]) => Number(c) >= 500);
    const n5xx = codes5xx.reduce((a, [, n]) => a + n, 0);
    const durable = visible === 0 && afterCrash.failures === 0 && inLog.missing === 0;
    row(
      'B3',
      '`PATCH /v1/spaces/{id}` random ids over 1,000 spaces, 100 connections; every 2xx durable and visible',
      `${L.fmtInt(B3.app.okPerSec)} writes/s; p50 ${ms(B3.app.p50)}, p99 ${ms(B3.app.p99)}`,
      `${rps(B3.bare.okPerSec)}; p50 ${ms(B3.bare.p50)}, p99 ${ms(B3.bare.p99)}`,
      `${L.pct(B3.ratio)} of req/s; p99 ×${L.fmt(B3.app.p99 / B3.bare.p99)}`,
      '≥ 5,000 writes/s (about 20% of bare Fastify); p99 ≤ 50 ms',
      B3.app.okPerSec >= 5000 && B3.app.p99 <= 50 && durable && n5xx === 0 && B3.app.errors === 0,
      `${durable ? 'durability and visibility checks passed' : 'DURABILITY/VISIBILITY CHECK FAILED'} ` +
        `(${L.fmtInt(inLog.checked)} acknowledged writes in the log after SIGKILL; last write visible on ` +
        `${L.fmtInt(afterCrash.checked - afterCrash.failures)}/${L.fmtInt(afterCrash.checked)} spaces)` +
        `${B3.app.non2xx ? `; ${L.fmtInt(B3.app.non2xx)} non-2xx (${statusList(B3.app.statusCodes)})` : ''}`,
    );
  }
  const B4 = results.B4;
  if (B4) {
    const c = B4.app.statusCodes;
    const n = (pred) =>
      Object.entries(c)
        .filter(([code]) => pred(Number(code)))
        .reduce((a, [, v]) => a + v, 0);
    const n5xx = n((code) => code >= 500);
    const n409 = n((code) => code === 409);
    const n412 = n((code) => code === 412);
    B4.conflictRate = n409 / B4.app.total;
    row(
      'B4',
      'the same PATCH, all 100 connections on one space',
      `${L.fmtInt(B4.app.okPerSec)} writes/s; p50 ${ms(B4.app.p50)}, p99 ${ms(B4.app.p99)}; ` +
        `409: ${L.fmtInt(n409)} (${L.pct(B4.conflictRate)} of ${L.fmtInt(B4.app.total)}), 412: ${n412}, 5xx: ${n5xx}, ` +
        `timeouts/errors: ${B4.app.errors}`,
      `${rps(B4.bare.okPerSec)} (PATCH echo)`,
      `${L.pct(B4.ratio)} of req/s`,
      'no 5xx; throughput and conflict rate reported',
      n5xx === 0 && B4.app.errors === 0,
      `stream length after the runs: ${L.fmtInt(B4.streamLength)} events`,
    );
  }
  const B5 = results.B5;
  if (B5) {
    const m = B5.median;
    row(
      'B5',
      `rebuild all read models from a log of ${L.fmtInt(results.log.events)} events`,
      `${L.fmtInt(m.rate)} events/s (${L.fmt(m.seconds)} s; whole command ${L.fmt(m.wallMs / 1000)} s = ` +
        `${L.fmtInt(m.wallRate)} events/s); peak RSS ${L.fmt(B5.peakRss / MB, 0)} MB`,
      '—',
      '—',
      '≥ 50,000 events/s; peak RSS ≤ 1 GiB',
      m.rate >= 50_000 && m.wallRate >= 50_000 && B5.peakRss <= GiB,
      `median of ${B5.runs.length} run(s), peak RSS the highest of any; ${L.fmt(m.writeBytes / 1e9, 1)} GB written to storage by the rebuild`,
    );
  }
  const B6 = results.B6;
  if (B6) {
    // No replay at start: /ready reports the projector at the head, and a checkpoint (projector or
    // reaction) behind the head before the start may only have reached it without work: a replay after
    // ready shows as CPU (a reaction replaying this log takes seconds), one before ready in the time to
    // ready. A reaction without a checkpoint whose past work a sweep redoes starts at the head by design.
    const busy = (r) => r.cpuNext3s >= IDLE_CPU_SECONDS;
    const behind = (r) => {
      if (r.before.error || r.after?.error) return busy(r) ? ['(busy after ready)'] : [];
      const names = new Set([...Object.keys(r.before), ...Object.keys(r.after ?? {})]);
      names.delete('head');
      const lagging = [...names].filter((name) => (r.before[name] ?? 0) < r.before.head);
      return busy(r) ? lagging.map((name) => `${name} at ${L.fmtInt(r.before[name] ?? 0)}`) : [];
    };
    const noReplay = B6.runs.every((r) => r.projected === r.head);
    const replays = B6.runs
      .map((r, i) => ({ start: i + 1, behind: behind(r) }))
      .filter((x) => x.behind.length);
    const quiet = replays.length === 0;
    const first = B6.runs[0];
    row(
      'B6',
      `standalone start-up to ready with that ${L.fmtInt(results.log.events)}-event log`,
      `${L.fmtInt(B6.readyMs)} ms (runs: ${B6.runs.map((r) => L.fmtInt(r.readyMs)).join(', ')} ms)`,
      '—',
      '—',
      '≤ 2 s (no replay at start)',
      B6.readyMs <= 2000 && noReplay && quiet,
      `projector at head when /ready first answers: ${noReplay ? 'yes' : 'NO'}; ` +
        `replay after ready: ${quiet ? 'none' : `YES (${replays.map((x) => `start ${x.start}: ${x.behind.join(', ')} of ${L.fmtInt(B6.runs[x.start - 1].head)}`).join('; ')}, busy after ready)`}; ` +
        `checkpoints behind the head before a start, reached without work: ${
          B6.runs
            .flatMap((r, i) =>
              (busy(r) ? [] : Object.keys(r.after ?? {}))
                .filter((n) => n !== 'head' && (r.before[n] ?? 0) < r.before.head)
                .map((n) => `start ${i + 1}: ${n}`),
            )
            .join(', ') || 'none'
        }; ` +
        `CPU used in the 3 s after ready, first start after the rebuild: ${L.fmt(first.cpuNext3s, 2)} s, ` +
        `later starts: ${B6.runs
          .slice(1)
          .map((r) => L.fmt(r.cpuNext3s, 2))
          .join(', ')} s`,
    );
  }
  const B7 = results.B7;
  if (B7?.median) {
    const m = B7.median;
    row(
      'B7',
      `jobs: ${L.fmtInt(CFG.jobs)} purge jobs through BullMQ on local Redis, enqueue to done`,
      `${L.fmtInt(m.purge.jobsPerSec)} jobs/s (${L.fmt(m.purge.ms / 1000)} s)`,
      `empty processor: ${L.fmtInt(m.baseline.jobsPerSec)} jobs/s`,
      `${L.pct(m.ratio)} of the empty processor`,
      '≥ 50% of the jobs/s BullMQ reaches with an empty processor in the same run',
      m.ratio >= 0.5 && m.purge.verified,
      `worker concurrency ${m.purge.concurrency} on both sides (as openStorage configures BullMqJobQueue); all ${L.fmtInt(CFG.jobs)} spaces purged: ` +
        `${m.purge.verified ? 'yes' : 'NO'}; with concurrency ${B7.variant?.concurrency} on both sides: ${L.pct(B7.variant?.ratio)}`,
    );
  }
  if (results.idle && B1) {
    row(
      'RSS',
      'idle RSS after start-up / RSS during B1',
      `${L.fmt(results.idle.rss / MB, 0)} MB / ${L.fmt(B1.app.peakRss / MB, 0)} MB`,
      `— / ${L.fmt(B1.bare.peakRss / MB, 0)} MB`,
      `— / ×${L.fmt(B1.app.peakRss / B1.bare.peakRss)}`,
      '≤ 200 MB / ≤ 400 MB',
      results.idle.rss <= 200 * MB && B1.app.peakRss <= 400 * MB,
      'peak of VmRSS sampled every 100 ms over the three B1 runs; MB = 10^6 bytes',
    );
  }
  access.evaluateAccess(results, row);
  content.evaluateContent(results, row);
  comments.evaluateComments(results, row);
  sites.evaluateSites(results, row);
  return rows.sort((a, b) => ORDER.indexOf(a.id) - ORDER.indexOf(b.id));
}

function checkpointList(cp) {
  if (cp.error) return `unreadable: ${cp.error}`;
  const entries = Object.entries(cp).filter(([name]) => name !== 'head');
  return entries.length ? entries.map(([name, pos]) => `${name} ${pos}`).join(', ') : 'none';
}

function statusList(codes) {
  return Object.entries(codes)
    .map(([c, n]) => `${c}: ${L.fmtInt(n)}`)
    .join(', ');
}

/* ------------------------------------------------------------------ report */

/** The commit under test (read-only git), and whether the working tree had changes on top of it. */
function revision() {
  const { execFileSync } = require('node:child_process');
  try {
    const git = (...args) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
    const head = git('log', '-1', '--format=%h %s');
    const changed = git('status', '--porcelain', '--untracked-files=no', '--', 'apps', 'libs')
      .split('\n')
      .filter(Boolean).length;
    return { head, changed };
  } catch {
    return { head: 'unknown', changed: 0 };
  }
}

function machine() {
  const cpuinfo = readFileSync('/proc/cpuinfo', 'utf8');
  const model = /^model name\s*:\s*(.*)$/m.exec(cpuinfo)?.[1] ?? 'unknown';
  return {
    nproc: os.availableParallelism?.() ?? os.cpus().length,
    model,
    memory: `${L.fmt(os.totalmem() / GiB, 1)} GiB`,
    node: process.version,
    kernel: os.release(),
    load: os.loadavg(),
  };
}

function httpDetails(name, s) {
  if (!s) return [];
  const lines = [
    `### ${name}`,
    '',
    '| run | server | 2xx/s | ratio | p50 ms | p99 ms | max ms | non-2xx | errors (of which timeouts > 10 s) | server peak RSS MB | server CPU (cores) | load generator CPU | other processes CPU |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  s.runs.app.forEach((a, i) => {
    const b = s.runs.bare[i];
    const pair = b ? [['bare', b]] : [];
    for (const [kind, r] of [...pair, ['app', a]]) {
      lines.push(
        `| ${i + 1} | ${kind} | ${L.fmtInt(r.okPerSec)} | ${kind === 'app' && b ? L.pct(a.okPerSec / b.okPerSec) : ''} | ${L.fmt(r.latency.p50)} | ${L.fmt(r.latency.p99)} | ${L.fmt(r.latency.max, 0)} | ${L.fmtInt(r.non2xx)} | ${r.errors} (${r.timeouts}) | ${L.fmt(r.peakRss / MB, 0)} | ${L.fmt(r.serverCores, 2)} | ${L.fmt(r.loadCores, 2)} | ${L.fmt(r.otherCores, 2)} |`,
      );
    }
  });
  const ceiling = s.bare
    ? `bare Fastify ${L.fmtInt(s.bare.okPerSec)} req/s (p50 ${L.fmt(s.bare.p50)} ms, p99 ${L.fmt(s.bare.p99)} ms): ${L.pct(s.ratio)} of the ceiling`
    : 'no ceiling run';
  lines.push(
    '',
    `Median of ${s.runs.app.length}: application ${L.fmtInt(s.app.okPerSec)} 2xx/s (p50 ${L.fmt(s.app.p50)} ms, p99 ${L.fmt(s.app.p99)} ms), ` +
      `${ceiling}. Application status codes over the measured runs: ${statusList(s.app.statusCodes)}.`,
    '',
  );
  return lines;
}

function report(results, rows, elapsedMs) {
  const m = results.machine;
  const same = (k) => (results.sameBodies ? (results.sameBodies[k] ? 'identical' : 'DIFFERENT') : 'not run');
  const partial = Boolean(CFG.only);
  const lines = [
    '# Benchmarks',
    '',
    `Generated by \`npm run bench\` (\`test/bench/run.js\`) on ${started.toISOString().replace('T', ' ').slice(0, 16)} UTC ` +
      `in ${L.fmt(elapsedMs / 60000)} min. Everything outside the analysis section is rewritten by every run.`,
    '',
    '## Machine',
    '',
    '| nproc | CPU | memory | Node | kernel | load average at start (1/5/15 min) | at end |',
    '| ---: | --- | --- | --- | --- | --- | --- |',
    `| ${m.nproc} | ${m.model} | ${m.memory} | ${m.node} | ${m.kernel} | ${m.load.map((x) => x.toFixed(2)).join(' / ')} | ${results.loadEnd.map((x) => x.toFixed(2)).join(' / ')} |`,
    '',
    'The machine is shared with other work (tests, type checks, browsers); the "other processes CPU" column of',
    'each HTTP run shows how many cores something other than the server and the load generator used meanwhile.',
    '',
    '## Method',
    '',
    `- Code under test: commit \`${results.revision.head}\`` +
      `${results.revision.changed ? ` plus uncommitted changes to ${results.revision.changed} file(s) under apps/ and libs/` : ''}, built by \`npm run build\` at the start.`,
    '- Command: `npm run bench` (= `npm run build && node test/bench/run.js`). Server: `node dist/apps/standalone/src/main.js`',
    '  (run from a copy of `dist/` taken at the start, `.tmp/bench/dist/`, so that rebuilds by others do not change it mid-run; standalone, embedded',
    `  SQLite event store and views, in-process jobs), \`LOG_LEVEL=${CFG.logLevel}\`, its output to a file; data in a fresh temporary directory.`,
    `- Load: autocannon ${require('autocannon/package.json').version} in a separate process (\`test/bench/load.js\`), ${CFG.connections} connections,`,
    `  ${CFG.warmup} s warm-up, then ${CFG.runs} runs of ${CFG.seconds} s per server, bare and application alternating; the`,
    '  figure is the median of the runs; latency from autocannon (p50/p99 of all responses); throughput counts 2xx only.',
    '- Ceiling: bare Fastify (`test/bench/bare-server.js`, same Fastify version, no auth, no storage) answering the',
    `  same routes with the same JSON bodies held in memory (checked byte for byte before the runs: space body ${same('space')},`,
    `  list body ${same('list')}), serialized per request; for B3/B4 a PATCH echo (body merged into the space, new updatedAt).`,
    '- Server memory: VmRSS sampled from `/proc/<pid>/status` every 100 ms during each run (peak reported); CPU from',
    '  `/proc/<pid>/stat`.',
    `- Data: ${L.fmtInt(results.seed?.spaces)} spaces created through \`POST /v1/orgs/{id}/spaces\` (${L.fmt((results.seed?.ms ?? 0) / 1000)} s) by the`,
    '  bootstrap admin; the server is then restarted and its idle RSS read 3 s after `/ready`.',
    '- B3: every PATCH carries a unique title. After each run every written space is read back with GET and must show',
    '  a write that may be the last one (no 2xx write to that space was sent after it was answered); after the runs the',
    '  server is killed with SIGKILL, restarted, the spaces are checked again, and every title acknowledged 2xx during the',
    '  runs must be a SpaceUpdated event in `events.sqlite`.',
    `- B5: \`test/bench/gen-log.js\` writes ${L.fmtInt(results.log?.events)} events straight into \`events.sqlite\` (schema created by`,
    `  SqliteEventStore itself): a user and token, ${results.log?.organizations} organizations, ${L.fmtInt(results.log?.spaces)} SpaceCreated and the rest`,
    '  SpaceUpdated (title, emoji or edit mode) on random spaces, with full envelopes; then `node dist/apps/cli/src/main.js',
    `  rebuild\` is timed ${CFG.rebuildRuns} time(s) on that log, each a complete rebuild into a new generation (the median`,
    "  reported): its own figure (replay) and the whole command's wall clock; peak RSS sampled every 50 ms.",
    '- B6: time from spawning the server on that data directory (after the rebuild) to the first 200 from `/ready`,',
    `  ${CFG.starts} starts, median; \`/ready\` must already report the projector at the head of the log.`,
    `- B7: a private \`redis-server\` (no persistence) on a free port; ${L.fmtInt(CFG.jobs)} jobs enqueued at once, timed to the`,
    "  last completion. Measured: the project's storage as the standalone opens it (`openStorage` with DATA_DIR and",
    "  REDIS_URL: its BullMqJobQueue and SqliteEventStore) and SpacePurges' real `space.purge` handler, the store seeded",
    `  with ${L.fmtInt(CFG.jobs)} deleted spaces past retention (each job appends a SpacePurged event; all are checked). Baseline:`,
    '  BullMQ Queue + Worker with an empty processor, the same job options and the same worker concurrency. Median of',
    `  ${CFG.jobRuns} pairs.`,
    ...access.method(),
    ...content.method(CFG),
    ...comments.method(),
    ...sites.method(),
    '',
  ];
  if (CFG.seconds < 10 || CFG.runs < 3) {
    lines.push(
      '**Shortened run (BENCH_SECONDS / BENCH_RUNS below the rules): figures are indicative only.**',
      '',
    );
  }
  if (partial) lines.push(`**Partial run: only ${[...CFG.only].join(', ')}.**`, '');
  lines.push(
    '## Results',
    '',
    '| | scenario | measured (median) | bare Fastify (same run) | ratio to bare | target | result |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map(
      (r) =>
        `| ${r.id} | ${r.scenario} | ${r.measured} | ${r.bare} | ${r.ratio} | ${r.target} | ${r.pass ? '**pass**' : '**MISS**'}${r.note ? `<br>${r.note}` : ''} |`,
    ),
    '',
    '## Details',
    '',
    ...httpDetails('B1', results.B1),
    ...httpDetails('B2', results.B2),
    ...httpDetails('B3', results.B3),
  );
  if (results.B3) {
    const d = results.B3.durability;
    lines.push(
      'B3 checks: after each run, GET of every written space: ' +
        results.B3.runs.app
          .map((r, i) => `run ${i + 1} ${r.check.checked - r.check.failures}/${r.check.checked}`)
          .join(', ') +
        `; after SIGKILL and restart: ${d.afterCrash.checked - d.afterCrash.failures}/${d.afterCrash.checked} spaces, ` +
        `${d.inLog.checked - d.inLog.missing}/${d.inLog.checked} acknowledged titles found in the log.`,
      '',
    );
  }
  lines.push(...httpDetails('B4', results.B4));
  lines.push(...httpDetails('B8', results.B8), ...httpDetails('B9', results.B9));
  lines.push(
    ...httpDetails('B10', results.B10),
    ...content.contentDetails(results),
    ...httpDetails('B12', results.B12),
    ...httpDetails('B13', results.B13),
    ...httpDetails('B14', results.B14),
    ...httpDetails('B15', results.B15),
    ...httpDetails('B16', results.B16),
  );
  if (results.B5) {
    lines.push(
      '### B5',
      '',
      `Log: ${L.fmtInt(results.log.events)} events, ${L.fmtInt(results.log.streams)} streams, generated in ${L.fmt(results.log.wallMs / 1000)} s.`,
      '',
      '| run | events | replay s | events/s | whole command s | events/s (whole) | peak RSS MB | user CPU s | system CPU s | bytes written |',
      '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
      ...results.B5.runs.map(
        (r, i) =>
          `| ${i + 1} | ${L.fmtInt(r.events)} | ${L.fmt(r.seconds)} | ${L.fmtInt(r.rate)} | ${L.fmt(r.wallMs / 1000)} | ${L.fmtInt(r.wallRate)} | ${L.fmt(r.peakRss / MB, 0)} | ${L.fmt(r.cpu?.user)} | ${L.fmt(r.cpu?.system)} | ${L.fmt(r.writeBytes / 1e9, 2)} GB |`,
      ),
      '',
    );
  }
  if (results.B6) {
    lines.push(
      '### B6',
      '',
      '| start | ready ms | head | projected at ready | checkpoints in the views before the start | CPU s in the 3 s after ready | RSS 3 s after ready MB |',
      '| ---: | ---: | ---: | ---: | --- | ---: | ---: |',
      ...results.B6.runs.map(
        (r, i) =>
          `| ${i + 1} | ${L.fmtInt(r.readyMs)} | ${r.head} | ${r.projected} | ${checkpointList(r.before)} | ${L.fmt(r.cpuNext3s, 2)} | ${L.fmt(r.rss / MB, 0)} |`,
      ),
      '',
    );
  }
  if (results.B7) {
    lines.push(
      '### B7',
      '',
      '| run | worker concurrency | empty processor jobs/s | purge jobs/s | ratio | purge enqueue s | purge total s | all purged |',
      '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
      ...results.B7.runs.map(
        (r, i) =>
          `| ${i + 1} | ${r.purge.concurrency} | ${L.fmtInt(r.baseline.jobsPerSec)} | ${L.fmtInt(r.purge.jobsPerSec)} | ${L.pct(r.ratio)} | ${L.fmt(r.purge.enqueueMs / 1000, 2)} | ${L.fmt(r.purge.ms / 1000, 2)} | ${r.purge.verified} |`,
      ),
    );
    if (results.B7.variant) {
      const v = results.B7.variant;
      lines.push(
        `| comparison | ${v.concurrency} | ${L.fmtInt(v.baseline.jobsPerSec)} | ${L.fmtInt(v.purge.jobsPerSec)} | ${L.pct(v.ratio)} | ${L.fmt(v.purge.enqueueMs / 1000, 2)} | ${L.fmt(v.purge.ms / 1000, 2)} | ${v.purge.verified} |`,
      );
    }
    lines.push('');
  }
  const profiled = Object.entries(results.profiles);
  if (profiled.length > 0) {
    lines.push(
      CFG.profileAll ? '## Profiles' : '## Profiles of the missed targets',
      '',
      `${CFG.profileAll ? 'Each scenario (`BENCH_PROFILE=all`)' : 'Each missed target'} was run again under \`node --cpu-prof\` (same load; profiles in \`.tmp/bench/profiles/\`, open`,
      'them in Chrome DevTools or speedscope for the flame graph). Each thread writes a profile; the one shown is the',
      "busiest thread's. Self time is where that thread was executing; inclusive time counts callees too; the",
      "heaviest stacks are the flame graph's widest towers, as text.",
      '',
    );
    for (const [name, p] of profiled) {
      lines.push(`### ${name}`, '');
      if (p.underProfiler?.okPerSec !== undefined) {
        lines.push(
          `Under the profiler: ${L.fmtInt(p.underProfiler.okPerSec)} 2xx/s, p99 ${L.fmt(p.underProfiler.latency.p99)} ms, ` +
            `server CPU ${L.fmt(p.underProfiler.serverCores, 2)} cores.`,
          '',
        );
      }
      if (p.sides) lines.push(...sidesTable(p.sides));
      lines.push(p.summary ? profiles.toMarkdown(p.summary) : p.error, '');
    }
  }
  const previous = existsSync(join(ROOT, 'BENCHMARKS.md'))
    ? readFileSync(join(ROOT, 'BENCHMARKS.md'), 'utf8')
    : '';
  const kept = /<!-- analysis:start -->[\s\S]*<!-- analysis:end -->/.exec(previous)?.[0];
  lines.push(
    '## Analysis',
    '',
    kept ??
      '<!-- analysis:start -->\n_Written by hand from the profiles above; kept across runs._\n<!-- analysis:end -->',
    '',
  );
  return lines.join('\n');
}

/* ------------------------------------------------------------------ main */

async function main() {
  mkdirSync(ARTIFACTS, { recursive: true });
  for (const f of readdirSync(ARTIFACTS)) if (f.endsWith('.log')) rmSync(join(ARTIFACTS, f));
  rmSync(DIST, { recursive: true, force: true });
  cpSync(join(ROOT, 'dist'), DIST, { recursive: true });
  const results = { machine: machine(), revision: revision(), profiles: {}, errors: {}, config: CFG };
  log(`work directory ${work}; artifacts in ${relative(ROOT, ARTIFACTS)}`);
  const t0 = Date.now();
  let httpCtx;
  const missedOf = (rows, names) =>
    rows
      .filter((r) => (CFG.profileAll || !r.pass) && !results.errors[r.id] && names.includes(r.id))
      .map((r) => r.id);
  if (wants('B1', 'B2', 'B3', 'B4', 'RSS')) {
    httpCtx = await attempt(results, ['B1', 'B2', 'B3', 'B4', 'RSS'], () => httpScenarios(results));
  }
  let rows = evaluate(results);
  if (CFG.profile && httpCtx) {
    const missed = missedOf(rows, ['B1', 'B2', 'B3', 'B4']);
    await attempt(results, ['profile'], () => profileHttp(results, httpCtx, missed));
  }
  if (wants('B5', 'B6')) {
    const logCtx = await attempt(results, ['B5', 'B6'], () => logScenarios(results));
    rows = evaluate(results);
    const missed = missedOf(rows, ['B5', 'B6']);
    if (CFG.profile && logCtx) await attempt(results, ['profile'], () => profileLog(results, logCtx, missed));
    if (!CFG.keep) rmSync(join(work, 'log'), { recursive: true, force: true });
  }
  if (wants('B7')) await attempt(results, ['B7'], () => jobScenarios(results));
  if (wants('B8', 'B9')) {
    const helpers = { startApp, startBare, stop, scenario, attempt, quiet, wants, work, CFG, CLI };
    const accessCtx = await attempt(results, ['B8', 'B9'], () => access.accessScenarios(results, helpers));
    rows = evaluate(results);
    const missed = missedOf(rows, ['B8', 'B9']);
    if (CFG.profile && accessCtx && missed.length > 0) {
      await attempt(results, ['profile'], () =>
        profileHttp(results, accessCtx, missed, (name) =>
          access.profileConfig(name, accessCtx.ctx, accessCtx.token),
        ),
      );
    }
  }
  if (wants(...Object.keys(content.NAMES))) {
    const helpers = { startApp, startBare, stop, scenario, attempt, quiet, wants, work, CFG };
    await attempt(results, Object.keys(content.NAMES), () => content.contentScenarios(results, helpers));
  }
  if (wants(...Object.keys(comments.NAMES))) {
    const helpers = { startApp, startBare, stop, scenario, attempt, quiet, wants, work, CFG };
    await attempt(results, Object.keys(comments.NAMES), () => comments.commentScenarios(results, helpers));
  }
  if (wants(...Object.keys(sites.NAMES))) {
    const helpers = { startApp, startBare, stop, scenario, attempt, quiet, wants, work, CFG };
    await attempt(results, Object.keys(sites.NAMES), () => sites.siteScenarios(results, helpers));
  }
  results.loadEnd = os.loadavg();
  rows = evaluate(results);
  writeFileSync(join(ARTIFACTS, 'results.json'), JSON.stringify({ ...results, rows }, null, 2));
  const out = CFG.only ? join(ARTIFACTS, 'BENCHMARKS.partial.md') : join(ROOT, 'BENCHMARKS.md');
  writeFileSync(out, report(results, rows, Date.now() - t0));
  log(`wrote ${relative(ROOT, out)} (${L.fmt((Date.now() - t0) / 60000)} min)`);
  for (const r of rows)
    log(`${r.id.padEnd(3)} ${r.pass ? 'pass' : 'MISS'}  ${r.measured}  (target ${r.target})`);
}

async function cleanup() {
  await Promise.all([...running].map((p) => L.stopProcess(p, 'SIGKILL', 1000)));
  if (!CFG.keep) rmSync(work, { recursive: true, force: true });
}

process.on('SIGINT', () => {
  cleanup().finally(() => process.exit(130));
});

main()
  .then(cleanup)
  .then(
    () => process.exit(0),
    async (error) => {
      process.stderr.write(`bench failed: ${error.stack ?? error}\n`);
      await cleanup();
      process.exit(1);
    },
  );
