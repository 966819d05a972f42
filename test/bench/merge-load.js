/*
 * The merge load generator for B11, run by content.js as a separate process:
 *
 *   node test/bench/merge-load.js CONFIG.json RESULT.json
 *
 * CONFIG: { port, token, spaceId, pages: [id], workers, seconds?, count?, tag, bytes, textBase }
 *
 * Each worker loops: create a change request, update one page of its own share of `pages` with new
 * Markdown (`updateChangeRequestContent`, one `update_page`), merge it. Workers never edit the same
 * page, so every merge lands unless the server loses one. The n-th edit of a run writes the text of seed
 * `textBase + n`: each run on a server gets its own `textBase`, so no edit writes a page's text again
 * (one that did would change nothing, and cost nothing to merge). The latency measured is the update plus the
 * merge (the create is reported apart); it runs for `seconds`, or until `count` merges landed.
 */
const { readFileSync, writeFileSync } = require('node:fs');
const { performance } = require('node:perf_hooks');
const L = require('./lib');
const { pageMarkdown } = require('./text');

const [configFile, resultFile] = process.argv.slice(2);
const config = JSON.parse(readFileSync(configFile, 'utf8'));
const { port, token, spaceId } = config;

const timings = { pair: [], create: [], update: [], merge: [] };
const statuses = {};
let merged = 0;
let conflicts = 0;
let failed = 0;
let seq = 0;

const count = (status) => {
  statuses[status] = (statuses[status] ?? 0) + 1;
};

async function timed(list, method, path, body) {
  const t0 = performance.now();
  const res = await L.request(port, method, path, { token, body });
  list.push(performance.now() - t0);
  count(res.status);
  return res;
}

async function cycle(page) {
  const n = seq++;
  const cr = await timed(timings.create, 'POST', `/v1/spaces/${spaceId}/change-requests`, {
    subject: `${config.tag} ${n}`,
  });
  if (cr.status !== 201) return void failed++;
  const base = `/v1/spaces/${spaceId}/change-requests/${cr.body.id}`;
  const t0 = performance.now();
  // A new page like those the space was filled with (sections and all), so the index neither grows nor
  // shrinks on average as pages are replaced.
  const markdown = `${pageMarkdown((config.textBase + n) * 7919 + 1, config.bytes)}\n`;
  const update = await timed(timings.update, 'POST', `${base}/content`, {
    changes: [{ operation: 'update_page', page, document: { markdown } }],
  });
  if (update.status !== 200) return void failed++;
  const merge = await timed(timings.merge, 'POST', `${base}/merge`);
  timings.pair.push(performance.now() - t0);
  if (merge.status !== 200) failed++;
  else if (merge.body.result === 'merge') merged++;
  else conflicts++;
}

function percentiles(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { n: sorted.length, p50: at(0.5), p99: at(0.99), max: sorted.at(-1) };
}

async function main() {
  const started = performance.now();
  const deadline = config.seconds ? started + config.seconds * 1000 : Number.POSITIVE_INFINITY;
  const done = () => performance.now() >= deadline || (config.count !== undefined && merged >= config.count);
  const workers = Array.from({ length: config.workers }, async (_, w) => {
    const own = config.pages.filter((_p, i) => i % config.workers === w);
    for (let i = 0; !done(); i++) await cycle(own[i % own.length]);
  });
  await Promise.all(workers);
  const seconds = (performance.now() - started) / 1000;
  const result = {
    workers: config.workers,
    seconds,
    merged,
    conflicts,
    failed,
    statuses,
    mergesPerSec: merged / seconds,
    latency: percentiles(timings.pair),
    create: percentiles(timings.create),
    update: percentiles(timings.update),
    merge: percentiles(timings.merge),
  };
  writeFileSync(resultFile, JSON.stringify(result));
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`merge-load: ${error.stack ?? error}\n`);
    process.exit(1);
  },
);
