/*
 * The site benchmark of `npm run bench` (B16), on its own server and data directory.
 *
 *   B16: `GET` the structure of a site of BENCH_SITE_SECTIONS (20) sections of BENCH_SITE_SPACES (10)
 *        site spaces each, against bare Fastify serving the same body.
 *
 * The site is built through the API, as a client builds it.
 */
const { randomBytes } = require('node:crypto');
const { join } = require('node:path');
const L = require('./lib');

const { call, log, settled } = L;
const num = (name, fallback) => (process.env[name] ? Number(process.env[name]) : fallback);
const SIZES = { sections: num('BENCH_SITE_SECTIONS', 20), siteSpaces: num('BENCH_SITE_SPACES', 10) };

const NAMES = {
  B16: `\`GET /v1/orgs/{id}/sites/{id}/structure\` of a site of ${SIZES.sections} sections × ${SIZES.siteSpaces} site spaces, 100 connections`,
};
const TARGETS = { B16: '≥ 40% of bare Fastify serving the same body; p99 ≤ 25 ms' };

/** A site of `sections` sections, each made with a space and given `siteSpaces - 1` more. */
async function seed(app, sections, siteSpaces) {
  const started = Date.now();
  const site = await call(app, 'POST', `/v1/orgs/${app.org}/sites`, { title: 'Structure' }, 201);
  const newSpace = async (title) =>
    (await call(app, 'POST', `/v1/orgs/${app.org}/spaces`, { title }, 201)).id;
  for (let s = 0; s < sections; s++) {
    const first = await newSpace(`Section ${s}`);
    const section = await call(
      app,
      'POST',
      `/v1/orgs/${app.org}/sites/${site.id}/sections`,
      { spaceId: first },
      201,
    );
    await L.mapLimit(
      Array.from({ length: siteSpaces - 1 }, (_, i) => i),
      4,
      async (i) => {
        const spaceId = await newSpace(`Section ${s} variant ${i}`);
        await call(
          app,
          'POST',
          `/v1/orgs/${app.org}/sites/${site.id}/site-spaces`,
          { spaceId, sectionId: section.id },
          201,
        );
      },
    );
  }
  await settled(app);
  return { site: site.id, seedMs: Date.now() - started };
}

async function siteScenarios(results, h) {
  const dataDir = join(h.work, 'sites');
  const token = `bench_${randomBytes(24).toString('hex')}`;
  const app = await h.startApp(dataDir, { token, label: 'sites' });
  try {
    app.token = token;
    app.org = (await L.request(app.port, 'GET', '/v1/orgs', { token })).body.items[0].id;
    log(`sites: a site of ${SIZES.sections} sections × ${SIZES.siteSpaces} site spaces`);
    const seeded = await seed(app, SIZES.sections, SIZES.siteSpaces);
    const path = `/v1/orgs/${app.org}/sites/${seeded.site}/structure`;
    const body = await call(app, 'GET', path, undefined, 200);
    const counted = (body.structure ?? []).reduce((n, section) => n + (section.siteSpaces?.length ?? 0), 0);
    if (
      body.type !== 'sections' ||
      body.structure.length !== SIZES.sections ||
      counted !== SIZES.sections * SIZES.siteSpaces
    )
      throw new Error(`the structure holds ${body.structure?.length} sections and ${counted} site spaces`);
    results.sites = { ...seeded, bytes: Buffer.byteLength(JSON.stringify(body)) };
    await h.attempt(results, ['B16'], async () => {
      const bare = await h.startBare({ bodies: { [path]: body } }, 'bare-sites');
      try {
        const same =
          (await L.request(app.port, 'GET', path, { token })).text ===
          (await L.request(bare.port, 'GET', path)).text;
        if (!same) throw new Error('the bare server does not answer the same structure');
        const config = () => ({ mode: 'get-paths', paths: [path], token });
        results.B16 = await h.scenario('B16', [
          { kind: 'bare', server: bare, config },
          { kind: 'app', server: app, config },
        ]);
      } finally {
        await h.stop(bare);
      }
    });
  } finally {
    await h.stop(app);
  }
}

function evaluateSites(results, row) {
  const ms = (v) => `${L.fmt(v)} ms`;
  const { B16 } = results;
  if (!B16) return;
  row(
    'B16',
    NAMES.B16,
    `${L.fmtInt(B16.app.okPerSec)} req/s; p50 ${ms(B16.app.p50)}, p99 ${ms(B16.app.p99)}`,
    `${L.fmtInt(B16.bare.okPerSec)} req/s; p50 ${ms(B16.bare.p50)}, p99 ${ms(B16.bare.p99)}`,
    `${L.pct(B16.ratio)} of req/s; p99 ×${L.fmt(B16.app.p99 / B16.bare.p99)}`,
    TARGETS.B16,
    B16.ratio >= 0.4 && B16.app.p99 <= 25 && B16.app.non2xx === 0 && B16.app.errors === 0,
    `${L.fmtInt(results.sites.bytes)} bytes a body; the site built in ${L.fmt(results.sites.seedMs / 1000)} s`,
  );
}

/** The Method bullets of BENCHMARKS.md for this scenario. */
function method() {
  return [
    `- B16 (\`test/bench/sites.js\`, its own server): a site of ${SIZES.sections} sections, each added with a new space and given`,
    `  ${SIZES.siteSpaces - 1} more site spaces of new spaces, through the API; \`GET\` its structure; the bare server answers the same body.`,
  ];
}

module.exports = { NAMES, TARGETS, SIZES, siteScenarios, evaluateSites, method };
