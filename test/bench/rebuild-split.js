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
 * The last line (`RESULT {...}`) holds the milliseconds per call, for `run.js`.
 */
require('reflect-metadata');
const { join, resolve } = require('node:path');
const { performance } = require('node:perf_hooks');

const DIST = process.env.BENCH_DIST ?? resolve(__dirname, '../../dist');
const load = (path) => require(join(DIST, path));
const { SqliteEventStore } = load('libs/platform/src/eventstore/sqlite-event-store');
const { SqliteReadStore } = load('libs/platform/src/readstore/sqlite-read-store');
const { Projector } = load('libs/platform/src/projector/projector');
const { PROJECTION_LIST } = load('libs/composition/src/projections');

const dir = process.argv[2];
if (!dir) {
  process.stderr.write('usage: node test/bench/rebuild-split.js DIR\n');
  process.exit(2);
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
        if (name === 'forGeneration') return timed(result, side);
        const key = `${side}.${String(name)}`;
        return Promise.resolve(result).finally(() => {
          spent.set(key, (spent.get(key) ?? 0) + performance.now() - started);
        });
      };
    },
  });
}

async function main() {
  const events = new SqliteEventStore({ path: join(dir, 'events.sqlite') });
  const views = new SqliteReadStore({ path: join(dir, 'views.sqlite') });
  const projector = new Projector(timed(events, 'log'), timed(views, 'views'), PROJECTION_LIST);
  const started = performance.now();
  const applied = await projector.rebuild();
  const total = performance.now() - started;
  await views.close();
  await events.close();

  const sum = (side) =>
    [...spent].filter(([key]) => key.startsWith(`${side}.`)).reduce((acc, [, ms]) => acc + ms, 0);
  const s = (ms) => `${(ms / 1000).toFixed(1)} s`;
  const storage = sum('log') + sum('views');
  const lines = [
    `rebuild of ${applied} events: ${s(total)} (${Math.round(applied / (total / 1000))} events/s)`,
    `  log reads (SQLite and JSON.parse): ${s(sum('log'))}`,
    `  read store (serializing rows, SQLite writes, reads back, index builds): ${s(sum('views'))}`,
    ...[...spent]
      .filter(([key, ms]) => key.startsWith('views.') && ms >= 50)
      .sort((a, b) => b[1] - a[1])
      .map(([key, ms]) => `    ${key.slice('views.'.length)}: ${s(ms)}`),
    `  projection side (projection code, rebuild buffer, their garbage collection): ${s(total - storage)}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  const ms = Object.fromEntries([...spent].map(([key, value]) => [key, Math.round(value)]));
  process.stdout.write(`RESULT ${JSON.stringify({ events: applied, totalMs: Math.round(total), ms })}\n`);
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
