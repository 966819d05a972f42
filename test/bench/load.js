/*
 * The load generator, run by run.js as a separate process: one autocannon run against 127.0.0.1.
 *
 *   node test/bench/load.js CONFIG.json RESULT.json
 *
 * CONFIG: { port, token?, mode, seconds, connections, tag, ids?, org?, spaceId?, paths?, recordFile? }
 *   mode get-space     GET /v1/spaces/{random id of ids}
 *   mode list          GET /v1/orgs/{org}/spaces?limit=100
 *   mode patch-random  PATCH /v1/spaces/{random id of ids} with a unique title; records every write
 *   mode patch-one     PATCH /v1/spaces/{spaceId} with a unique title from every connection
 *   mode get-paths     GET a random path of `paths` (page reads, searches: test/bench/content.js)
 *   mode member-search GET /v1/orgs/{org}/members?search={a random one of `searches`, letters in random case}
 *   mode post-comment  POST /v1/spaces/{spaceId}/comments, a unique one-sentence Markdown body each
 *
 * For the PATCH modes every write is recorded (space, title, send and answer time, status) and, with
 * recordFile, summarized per space: the titles one of which a following GET must show (the writes not
 * followed by a later-started successful write to the same space), and every title answered 2xx.
 */
const { readFileSync, writeFileSync } = require('node:fs');
const { performance } = require('node:perf_hooks');
const autocannon = require('autocannon');
const { pacedLoad } = require('./paced-load');

const [configFile, resultFile] = process.argv.slice(2);
const config = JSON.parse(readFileSync(configFile, 'utf8'));

const headers = {};
if (config.token) headers.authorization = `Bearer ${config.token}`;

const writes = [];
let seq = 0;
const pick = (ids) => ids[Math.floor(Math.random() * ids.length)];
const { mixedCase } = require('./lib');

function patchRequest(chooseId) {
  headers['content-type'] = 'application/json';
  return {
    method: 'PATCH',
    setupRequest(req, context) {
      const id = chooseId();
      const title = `${config.tag}-${seq++}`;
      const write = { id, title, send: performance.now(), recv: Number.POSITIVE_INFINITY, status: 0 };
      writes.push(write);
      context.write = write;
      return { ...req, path: `/v1/spaces/${id}`, body: JSON.stringify({ title }) };
    },
    onResponse(status, _body, context) {
      const write = context.write;
      if (!write) return;
      write.status = status;
      write.recv = performance.now();
      context.write = undefined;
    },
  };
}

function requestsFor(mode) {
  switch (mode) {
    case 'get-space':
      return [
        {
          method: 'GET',
          setupRequest: (req) => ({ ...req, path: `/v1/spaces/${pick(config.ids)}` }),
        },
      ];
    case 'list':
      return [{ method: 'GET', path: `/v1/orgs/${config.org}/spaces?limit=100` }];
    case 'get-paths':
      return [{ method: 'GET', setupRequest: (req) => ({ ...req, path: pick(config.paths) }) }];
    case 'member-search':
      return [
        {
          method: 'GET',
          setupRequest: (req) => ({
            ...req,
            path: `/v1/orgs/${config.org}/members?search=${encodeURIComponent(mixedCase(pick(config.searches)))}`,
          }),
        },
      ];
    case 'patch-random':
      return [patchRequest(() => pick(config.ids))];
    case 'patch-one':
      return [patchRequest(() => config.spaceId)];
    case 'post-comment':
      headers['content-type'] = 'application/json';
      return [
        {
          method: 'POST',
          path: `/v1/spaces/${config.spaceId}/comments`,
          setupRequest: (req) => ({
            ...req,
            body: JSON.stringify({
              body: { markdown: `Comment ${config.tag}-${seq++}: please check this.` },
            }),
          }),
        },
      ];
    default:
      throw new Error(`unknown mode ${mode}`);
  }
}

/**
 * Per space, the writes that may be the one a following GET shows: a write W qualifies unless some
 * write X answered 2xx was sent after W was answered (X then committed after W). Writes answered 409
 * or 4xx did not commit; writes with no answer or a 5xx may have.
 */
function summarizeWrites() {
  const bySpace = new Map();
  for (const w of writes) {
    const list = bySpace.get(w.id) ?? [];
    list.push(w);
    bySpace.set(w.id, list);
  }
  const maybeCommitted = (w) => (w.status >= 200 && w.status < 300) || w.status === 0 || w.status >= 500;
  const spaces = {};
  for (const [id, list] of bySpace) {
    const ok = list.filter((w) => w.status >= 200 && w.status < 300);
    if (ok.length === 0) continue;
    // The latest and second latest send among 2xx writes: "latest send by another 2xx write" in O(1).
    let first;
    let second;
    for (const x of ok) {
      if (!first || x.send > first.send) [first, second] = [x, first];
      else if (!second || x.send > second.send) second = x;
    }
    const candidates = list
      .filter(maybeCommitted)
      .filter((w) => {
        const other = w === first ? second : first;
        return !other || other.send <= w.recv;
      })
      .map((w) => w.title);
    spaces[id] = candidates;
  }
  const ok2xx = writes.filter((w) => w.status >= 200 && w.status < 300).map((w) => w.title);
  return { spaces, titles2xx: ok2xx, unanswered: writes.filter((w) => w.status === 0).length };
}

if (config.rate) {
  // A fixed offered rate: an open-loop load of its own (see paced-load.js).
  pacedLoad(config, () => pick(config.paths)).then((out) => {
    writeFileSync(resultFile, JSON.stringify(out));
    process.exit(0);
  });
} else {
  runAutocannon();
}

function runAutocannon() {
  const instance = autocannon(
    {
      url: `http://127.0.0.1:${config.port}`,
      connections: config.connections,
      duration: config.seconds,
      headers,
      requests: requestsFor(config.mode),
      timeout: 10,
    },
    (error, result) => {
      if (error) {
        process.stderr.write(`autocannon: ${error.message}\n`);
        process.exit(1);
      }
      const codes = Object.fromEntries(
        Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, Number(count)]),
      );
      const ok = result['2xx'];
      const out = {
        mode: config.mode,
        seconds: result.duration,
        connections: result.connections,
        total: result.requests.total,
        ok,
        non2xx: result.non2xx,
        errors: result.errors,
        timeouts: result.timeouts,
        statusCodes: codes,
        okPerSec: ok / result.duration,
        reqPerSec: result.requests.total / result.duration,
        latency: {
          p50: result.latency.p50,
          p90: result.latency.p90,
          p99: result.latency.p99,
          mean: result.latency.mean,
          max: result.latency.max,
        },
        bytesPerSec: result.throughput.average,
      };
      if (config.recordFile) {
        const summary = summarizeWrites();
        writeFileSync(config.recordFile, JSON.stringify(summary));
        out.recorded = {
          writes: writes.length,
          spaces: Object.keys(summary.spaces).length,
          unanswered: summary.unanswered,
        };
      }
      writeFileSync(resultFile, JSON.stringify(out));
      process.exit(0);
    },
  );
  instance.on('error', () => {});
}
