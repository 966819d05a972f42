/*
 * Where B5's time goes, by side: the application's own rebuild (Projector, SqliteEventStore,
 * SqliteReadStore, every projection), with each call into the log and into the read store timed. The
 * rebuild runs on one thread and awaits each call before the next, so the time outside those calls is
 * the projection side: projection code, the rebuild buffer, and the garbage collection they cause.
 *
 *   node test/bench/rebuild-split.js DIR
 *
 * DIR holds `events.sqlite` (e.g. from gen-log.js); the views are rebuilt into DIR/views.sqlite, so use a
 * copy. Splitting the rebuild over two threads could at best take as long as the longer of its sides.
 * Prints the table `run.js` puts in the report, then `RESULT {...}`: the milliseconds per call.
 */
const { join, resolve } = require('node:path');
const { performance } = require('node:perf_hooks');
const L = require('./lib');

/** The application's modules, loaded only to run (`run.js` requires this file for `sidesTable` alone). */
function application() {
  const dist = process.env.BENCH_DIST ?? resolve(__dirname, '../../dist');
  const load = (path) => require(join(dist, path));
  return {
    ...load('libs/platform/src/eventstore/sqlite-event-store'),
    ...load('libs/platform/src/readstore/sqlite-read-store'),
    ...load('libs/platform/src/projector/projector'),
    ...load('libs/composition/src/projections'),
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
  commit: 'the rows',
  ensureIndexes: 'the deferred index builds',
  get: 'documents read back',
  find: 'fan-out queries',
  promote: 'switching over, dropping the old generation',
};

/** The rebuild's time by side as a Markdown table, from this script's `RESULT` (also used by `run.js`). */
function sidesTable(sides) {
  if (sides.error) return [sides.error, ''];
  const s = (ms) => L.fmt(ms / 1000);
  const share = (ms) => L.pct(ms / sides.totalMs);
  const calls = Object.entries(sides.ms);
  const sum = (prefix) =>
    calls.filter(([key]) => key.startsWith(prefix)).reduce((acc, [, ms]) => acc + ms, 0);
  const views = sum('views.');
  const logReads = sum('log.');
  const rows = [
    ['log reads (SQLite, JSON.parse)', logReads],
    ['read store, all calls (serializing rows, SQLite writes, reads back, index builds)', views],
    ...calls
      .filter(([key, ms]) => key.startsWith('views.') && ms >= 50)
      .sort((a, b) => b[1] - a[1])
      .map(([key, ms]) => {
        const name = key.slice('views.'.length);
        return [`— of which \`${name}\`${REBUILD_CALLS[name] ? ` (${REBUILD_CALLS[name]})` : ''}`, ms];
      }),
    [
      'projection side (projection code, rebuild buffer, their garbage collection)',
      sides.totalMs - views - logReads,
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
