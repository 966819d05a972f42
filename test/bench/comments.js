/*
 * The comment benchmarks of `npm run bench` (B14, B15), on their own server and data directory.
 *
 *   B14: the open comments of a space holding BENCH_COMMENTS (10,000) comments, a fifth of them
 *        resolved, listed 100 a page (`status=open&limit=100`): a random one of the first pages.
 *   B15: comments posted to a space (a Markdown body each), against B3's writes/s in the same run.
 *
 * The comments go through the API, as a client writes them.
 */
const { randomBytes } = require('node:crypto');
const { join } = require('node:path');
const L = require('./lib');
const text = require('./text');

const { call, log, settled } = L;
const num = (name, fallback) => (process.env[name] ? Number(process.env[name]) : fallback);
const SIZES = { comments: num('BENCH_COMMENTS', 10_000) };
/** Pages of the open comments a B14 request reads (its first ones: how a client pages them). */
const LIST_PAGES = 20;
/** One comment in so many is resolved. */
const RESOLVED_EVERY = 5;

const NAMES = {
  B14: `\`GET /v1/spaces/{id}/comments?status=open&limit=100\` in a space of ${L.fmtInt(SIZES.comments)} comments, 100 connections`,
  B15: '`POST /v1/spaces/{id}/comments` with a Markdown body, 100 connections',
};
const TARGETS = {
  B14: '≥ 30% of bare Fastify serving the same bodies; p99 ≤ 50 ms',
  B15: "≥ 90% of B3's writes/s in the same run",
};

/** A space of `count` comments with a sentence of Markdown each, every RESOLVED_EVERY-th resolved. */
async function seed(app, count) {
  const space = await call(app, 'POST', `/v1/orgs/${app.org}/spaces`, { title: 'Comments' }, 201);
  const started = Date.now();
  const ids = new Array(count);
  await L.mapLimit(
    Array.from({ length: count }, (_, i) => i),
    16,
    async (i) => {
      const markdown = text.paragraphs(700_000 + i, 30);
      ids[i] = (await call(app, 'POST', `/v1/spaces/${space.id}/comments`, { body: { markdown } }, 200)).id;
      if ((i + 1) % 2000 === 0) log(`  comments: ${L.fmtInt(i + 1)} of ${L.fmtInt(count)}`);
    },
  );
  const resolved = ids.filter((_, i) => i % RESOLVED_EVERY === 0);
  await L.mapLimit(resolved, 16, (id) =>
    call(app, 'PUT', `/v1/spaces/${space.id}/comments/${id}`, { resolved: true }, 200),
  );
  await settled(app);
  return { space: space.id, open: count - resolved.length, seedMs: Date.now() - started };
}

async function commentScenarios(results, h) {
  const dataDir = join(h.work, 'comments');
  const token = `bench_${randomBytes(24).toString('hex')}`;
  const app = await h.startApp(dataDir, { token, label: 'comments' });
  try {
    app.token = token;
    app.org = (await L.request(app.port, 'GET', '/v1/orgs', { token })).body.items[0].id;
    log(`comments: a space of ${L.fmtInt(SIZES.comments)} comments`);
    const seeded = await seed(app, SIZES.comments);
    results.comments = { ...seeded, comments: SIZES.comments };

    if (h.wants('B14')) {
      await h.attempt(results, ['B14'], async () => {
        const base = `/v1/spaces/${seeded.space}/comments?status=open&limit=100`;
        const bodies = {};
        let path = base;
        for (let page = 0; page < LIST_PAGES && path; page++) {
          const body = await call(app, 'GET', path, undefined, 200);
          bodies[path] = body;
          path = body.next?.page ? `${base}&page=${encodeURIComponent(body.next.page)}` : undefined;
        }
        const paths = Object.keys(bodies);
        const first = bodies[base];
        if (first.count !== seeded.open) throw new Error(`${first.count} open comments, not ${seeded.open}`);
        results.comments.listBytes = Buffer.byteLength(JSON.stringify(first));
        results.comments.listPages = paths.length;
        const bare = await h.startBare({ bodies }, 'bare-comments');
        try {
          const same =
            (await L.request(app.port, 'GET', paths[1] ?? base, { token })).text ===
            (await L.request(bare.port, 'GET', paths[1] ?? base)).text;
          if (!same) throw new Error('the bare server does not answer the same comment list');
          const config = () => ({ mode: 'get-paths', paths, token });
          results.B14 = await h.scenario('B14', [
            { kind: 'bare', server: bare, config },
            { kind: 'app', server: app, config },
          ]);
        } finally {
          await h.stop(bare);
        }
      });
    }

    if (h.wants('B15')) {
      await h.attempt(results, ['B15'], async () => {
        const config = (tag) => ({ mode: 'post-comment', spaceId: seeded.space, token, tag: `b15${tag}` });
        results.B15 = await h.scenario('B15', [{ kind: 'app', server: app, config }]);
      });
    }
  } finally {
    await h.stop(app);
  }
}

/* ------------------------------------------------------------------ report */

function evaluateComments(results, row) {
  const ms = (v) => `${L.fmt(v)} ms`;
  const { B14, B15, B3 } = results;
  if (B14) {
    row(
      'B14',
      NAMES.B14,
      `${L.fmtInt(B14.app.okPerSec)} req/s; p50 ${ms(B14.app.p50)}, p99 ${ms(B14.app.p99)}`,
      `${L.fmtInt(B14.bare.okPerSec)} req/s; p50 ${ms(B14.bare.p50)}, p99 ${ms(B14.bare.p99)}`,
      `${L.pct(B14.ratio)} of req/s; p99 ×${L.fmt(B14.app.p99 / B14.bare.p99)}`,
      TARGETS.B14,
      B14.ratio >= 0.3 && B14.app.p99 <= 50 && B14.app.non2xx === 0 && B14.app.errors === 0,
      `${L.fmtInt(results.comments.open)} open comments; the first ${results.comments.listPages} pages, ` +
        `${L.fmtInt(results.comments.listBytes)} bytes the first`,
    );
  }
  if (B15) {
    const ratio = B3 ? B15.app.okPerSec / B3.app.okPerSec : undefined;
    row(
      'B15',
      NAMES.B15,
      `${L.fmtInt(B15.app.okPerSec)} writes/s; p50 ${ms(B15.app.p50)}, p99 ${ms(B15.app.p99)}`,
      B3 ? `B3: ${L.fmtInt(B3.app.okPerSec)} writes/s` : '— (B3 not run)',
      ratio === undefined ? '—' : `${L.pct(ratio)} of B3's writes/s`,
      TARGETS.B15,
      ratio !== undefined && ratio >= 0.9 && B15.app.non2xx === 0 && B15.app.errors === 0,
      'each a new comment of one sentence: plain text, read without the parser (`plainTextDocument`)',
    );
  }
}

/** The Method bullets of BENCHMARKS.md for these scenarios. */
function method() {
  return [
    `- Comments (\`test/bench/comments.js\`, its own server and data directory): a space of ${L.fmtInt(SIZES.comments)} comments posted`,
    `  through the API (about 30 words of generated Markdown each), one in ${RESOLVED_EVERY} then resolved.`,
    `- B14: a random one of the first ${LIST_PAGES} pages of \`GET /v1/spaces/{id}/comments?status=open&limit=100\`; the bare`,
    '  server answers the same bodies by URL.',
    '- B15: `POST /v1/spaces/{id}/comments` with a one-sentence Markdown body, unique per request; compared with B3 of',
    '  the same run.',
  ];
}

module.exports = { NAMES, TARGETS, SIZES, commentScenarios, evaluateComments, method };
