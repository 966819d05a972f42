/*
 * Where B5's time goes, by side: the application's own rebuild (Projector, SqliteEventStore,
 * SqliteReadStore, every projection), with each call into the log and into the read store timed. The
 * rebuild awaits each call before the next except commits, which run on the commit thread while it
 * projects the next batch; so the time outside the other calls is the projection side: projection
 * code, the rebuild buffer, handing writes over, the garbage collection they cause, and any wait for a
 * commit to land. A commit's time (hand-over to landing) is shown apart.
 *
 *   node test/bench/rebuild-split.js DIR
 *
 * DIR holds `events.sqlite` (e.g. from gen-log.js); the views are rebuilt into DIR/views.sqlite, so use a
 * copy. Runs in this thread, with Node's default young generation (the CLI gives its rebuild thread a
 * larger one), so it takes somewhat longer than the CLI. Prints the table `run.js` puts in the report, then `RESULT {...}`: the milliseconds per call.
 */
const { join, resolve } = require('node:path');
const { performance } = require('node:perf_hooks');
const L = require('./lib');

/** The application's modules, loaded only to run (`run.js` requires this file for `sidesTable` alone). */
function application() {
  const dist = process.env.BENCH_DIST ?? resolve(__dirname, '../../dist');
  const load = (path) => require(join(dist, path));
  return {
    ...load('libs/platform/eventstore/sqlite-event-store'),
    ...load('libs/platform/readstore/sqlite-read-store'),
    ...load('libs/platform/projector/projector'),
    ...load('libs/composition/features'),
  };
}

/** Milliseconds spent in each `side.method`. */
const spent = new Map();

/** `target` with every method call timed under `side`; handles it hands out are timed too. */
function timed(target, side) {
  return new Proxy(target, {
    get(object, name) {
      const value = object[name];
      if (typeof value !== 'function') return value;
      return (...args) => {
        const started = performance.now();
        const result = value.apply(object, args);
        if (name === 'forGeneration' || name === 'forRebuild') return timed(result, side);
        const key = `${side}.${String(name)}`;
        return Promise.resolve(result).finally(() => {
          spent.set(key, (spent.get(key) ?? 0) + performance.now() - started);
        });
      };
    },
  });
}

/** What each read-store call does in a rebuild. */
const REBUILD_CALLS = {
  ensureIndexes: 'the deferred index builds',
  get: 'documents read back',
  find: 'fan-out queries',
  promote: 'switching over',
  close: "waiting for the replaced generation's drop, which runs after the switch",
};

/** The rebuild's time by side as a Markdown table, from this script's `RESULT` (also used by `run.js`). */
function sidesTable(sides) {
  if (sides.error) return [sides.error, ''];
  const s = (ms) => L.fmt(ms / 1000);
  const share = (ms) => L.pct(ms / sides.totalMs);
  // Commits run on the commit thread while the rebuild goes on: their time overlaps the other sides.
  const overlapped = (key) => key === 'views.commit';
  const calls = Object.entries(sides.ms);
  const sum = (prefix) =>
    calls.filter(([key]) => key.startsWith(prefix) && !overlapped(key)).reduce((acc, [, ms]) => acc + ms, 0);
  const views = sum('views.');
  const logReads = sum('log.');
  const rows = [
    ['log reads (SQLite, JSON.parse)', logReads],
    ['read store calls the rebuild waits for (index builds, reads back, switch-over)', views],
    ...calls
      .filter(([key, ms]) => key.startsWith('views.') && !overlapped(key) && ms >= 50)
      .sort((a, b) => b[1] - a[1])
      .map(([key, ms]) => {
        const name = key.slice('views.'.length);
        return [`— of which \`${name}\`${REBUILD_CALLS[name] ? ` (${REBUILD_CALLS[name]})` : ''}`, ms];
      }),
    [
      'projection side (projection code, rebuild buffer, serializing and handing writes over, their garbage collection, waits for a commit)',
      sides.totalMs - views - logReads,
    ],
    [
      'commits, from hand-over to landing (serializing the batch, here and in the side above, then the SQLite writes on the commit thread, overlapping the above; two may be on their way at once, so this can pass 100%)',
      sides.ms['views.commit'] ?? 0,
    ],
  ];
  return [
    `Time by side (\`test/bench/rebuild-split.js\`: one more rebuild of the same log with the application's projector and`,
    `stores, every call into the log and the read store timed; ${L.fmtInt(sides.events)} events in ${s(sides.totalMs)} s).`,
    '',
    '| side | s | share |',
    '| --- | ---: | ---: |',
    ...rows.map(([what, ms]) => `| ${what} | ${s(ms)} | ${share(ms)} |`),
    '',
  ];
}

async function main(dir) {
  require('reflect-metadata');
  const { SqliteEventStore, SqliteReadStore, Projector, PROJECTION_LIST } = application();
  const events = new SqliteEventStore({ path: join(dir, 'events.sqlite') });
  const views = new SqliteReadStore({ path: join(dir, 'views.sqlite') });
  const projector = new Projector(timed(events, 'log'), timed(views, 'views'), PROJECTION_LIST);
  const started = performance.now();
  const applied = await projector.rebuild();
  const totalMs = Math.round(performance.now() - started);
  await views.close();
  await events.close();
  const ms = Object.fromEntries([...spent].map(([key, value]) => [key, Math.round(value)]));
  const result = { events: applied, totalMs, ms };
  process.stdout.write(`${sidesTable(result).join('\n')}\nRESULT ${JSON.stringify(result)}\n`);
}

module.exports = { sidesTable };

if (require.main === module) {
  const dir = process.argv[2];
  if (!dir) {
    process.stderr.write('usage: node test/bench/rebuild-split.js DIR\n');
    process.exit(2);
  }
  main(dir).catch((error) => {
    process.stderr.write(`${error.stack ?? error}\n`);
    process.exit(1);
  });
}
