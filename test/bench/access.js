/*
 * The access benchmarks of `npm run bench` (B8, B9), on their own server and data directory.
 *
 *   B8: a guest (a member whose organization role is null) reads spaces it reaches through a team grant
 *       on a collection three levels above them: BENCH_ACCESS_TREES (10) trees of collections A > B > C,
 *       BENCH_ACCESS_SPACES (1,000) spaces spread under their C, the team granted `read` on each A.
 *   B9: searches of the members of an organization of BENCH_MEMBERS (10,000) members by a prefix of a
 *       member's display name, up to BENCH_MEMBER_QUERIES (2,000) distinct prefixes.
 *
 * The spaces, collections, team and grants go through the API; the guest through the CLI (user, member,
 * token) and then the API (its role set to null); the 10,000 members of B9 are appended straight to the
 * log, as the events the application writes for them (UserCreated, MemberAdded), then projected by the
 * server.
 */
const { randomBytes, randomUUID } = require('node:crypto');
const { join } = require('node:path');
const Database = require('better-sqlite3');
const { v7: uuidv7 } = require('uuid');
const L = require('./lib');
const text = require('./text');

const { call, log, settled } = L;
const num = (name, fallback) => (process.env[name] ? Number(process.env[name]) : fallback);
const SIZES = {
  trees: num('BENCH_ACCESS_TREES', 10),
  spaces: num('BENCH_ACCESS_SPACES', 1000),
  members: num('BENCH_MEMBERS', 10_000),
  queries: num('BENCH_MEMBER_QUERIES', 2000),
};
/** Lengths of the searched prefixes of display names. */
const PREFIX_MIN = 3;
const PREFIX_MAX = 8;

const NAMES = {
  B8: `\`GET /v1/spaces/{id}\` by a guest reaching ${L.fmtInt(SIZES.spaces)} spaces through a team grant three collections up, 100 connections`,
  B9: `\`GET /v1/orgs/{id}/members?search=…\` in an organization of ${L.fmtInt(SIZES.members)} members, name prefixes, 100 connections`,
};
const TARGETS = {
  B8: '≥ 45% of bare Fastify req/s; p99 ≤ 25 ms',
  B9: '≥ 30% of bare Fastify serving the same bodies',
};

const FIRST_NAMES = [
  'Ada',
  'Alan',
  'Amara',
  'Anders',
  'Beatriz',
  'Bruno',
  'Camille',
  'Chen',
  'Dmitri',
  'Elena',
  'Emeka',
  'Farah',
  'Gustav',
  'Hana',
  'Ines',
  'Ivan',
  'Jamal',
  'Joanna',
  'Kenji',
  'Leila',
  'Lucas',
  'Maria',
  'Marek',
  'Nadia',
  'Noah',
  'Olga',
  'Omar',
  'Priya',
  'Quentin',
  'Rosa',
  'Samir',
  'Sofia',
  'Tomas',
  'Uma',
  'Viktor',
  'Wen',
  'Xavier',
  'Yara',
  'Yusuf',
  'Zoe',
];

/** Member `i`'s display name and email: distinct, a first name of 40 and a generated surname. */
function person(i) {
  const first = FIRST_NAMES[i % FIRST_NAMES.length];
  const surname = text.word(i + 100);
  const last = surname[0].toUpperCase() + surname.slice(1);
  return { displayName: `${first} ${last}`, email: `${first.toLowerCase()}.${surname}@members.example` };
}

/** `count` distinct lower-case prefixes of members' display names (seeded). */
function prefixes(count, members) {
  const next = text.random(42);
  const out = new Set();
  for (let tries = 0; out.size < count && tries < count * 50; tries++) {
    const name = person(Math.floor(next() * members)).displayName.toLowerCase();
    const length = PREFIX_MIN + Math.floor(next() * (PREFIX_MAX - PREFIX_MIN + 1));
    out.add(name.slice(0, Math.min(length, name.length)).trimEnd());
  }
  return [...out];
}

/* ------------------------------------------------------------------ seeding */

async function cli(h, dataDir, args) {
  const run = await L.runNode([h.CLI, ...args], {
    env: { DATA_DIR: dataDir, LOG_LEVEL: 'error' },
    logFile: join(L.ROOT, '.tmp', 'bench', 'access-cli.log'),
  });
  if (run.code !== 0) throw new Error(`cli ${args[0]} failed (${run.code}): ${run.stderr}`);
  return run.stdout.trim().split('\n').pop();
}

/**
 * Appends, with the server stopped, `count` users and their memberships (role `read`) of
 * `organization` to the log: the events and envelopes the CLI's `user:create` and `member:add` write.
 */
function appendMembers(dataDir, organization, count) {
  const db = new Database(join(dataDir, 'events.sqlite'));
  const insert = db.prepare(
    'INSERT INTO events (id, stream, revision, type, data, metadata) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const orgStream = `organization-${organization}`;
  let orgRevision = db.prepare('SELECT MAX(revision) FROM events WHERE stream = ?').pluck().get(orgStream);
  if (orgRevision === null || orgRevision === undefined) throw new Error(`no stream ${orgStream}`);
  let clock = Date.now() - count * 1000;
  const envelope = () =>
    JSON.stringify({
      schemaVersion: 1,
      occurredAt: new Date(clock).toISOString(),
      actor: { source: 'script' },
      correlationId: randomUUID(),
      causationId: null,
    });
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      clock += 1000;
      const at = new Date(clock).toISOString();
      const userId = newId();
      const { displayName, email } = person(i);
      insert.run(
        uuidv7({ msecs: clock }),
        `user-${userId}`,
        0,
        'UserCreated',
        JSON.stringify({ userId, displayName, email, createdAt: at }),
        envelope(),
      );
      clock += 1000;
      orgRevision += 1;
      insert.run(
        uuidv7({ msecs: clock }),
        orgStream,
        orgRevision,
        'MemberAdded',
        JSON.stringify({
          organizationId: organization,
          userId,
          role: 'read',
          joinedAt: new Date(clock).toISOString(),
        }),
        envelope(),
      );
    }
  })();
  db.close();
}

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** A 20-character base62 id, the shape newId() produces. */
function newId() {
  const bytes = randomBytes(40);
  let out = '';
  for (const b of bytes) if (b < 248 && out.length < 20) out += ALPHABET[b % 62];
  return out.length === 20 ? out : newId();
}

async function seed(h, dataDir, token) {
  let app = await h.startApp(dataDir, { token, label: 'access' });
  app.token = token;
  const org = (await call(app, 'GET', '/v1/orgs')).items[0].id;
  const admin = (await call(app, 'GET', `/v1/orgs/${org}/members?role=admin&limit=1`)).items[0].id;

  log(
    `access: ${SIZES.trees} trees of collections A > B > C, ${L.fmtInt(SIZES.spaces)} spaces under their C`,
  );
  const started = Date.now();
  const trees = [];
  for (let t = 0; t < SIZES.trees; t++) {
    const a = await call(app, 'POST', `/v1/orgs/${org}/collections`, { title: `Tree ${t + 1}` }, 201);
    const b = await call(
      app,
      'POST',
      `/v1/orgs/${org}/collections`,
      { title: `B ${t + 1}`, parent: a.id },
      201,
    );
    const c = await call(
      app,
      'POST',
      `/v1/orgs/${org}/collections`,
      { title: `C ${t + 1}`, parent: b.id },
      201,
    );
    trees.push({ a: a.id, c: c.id });
  }
  const ids = await L.mapLimit(
    Array.from({ length: SIZES.spaces }, (_, i) => i),
    8,
    async (i) =>
      (
        await call(
          app,
          'POST',
          `/v1/orgs/${org}/spaces`,
          { title: `Shared ${i + 1}`, emoji: '📗', parent: trees[i % trees.length].c },
          201,
        )
      ).id,
  );
  const unshared = (await call(app, 'POST', `/v1/orgs/${org}/spaces`, { title: 'Not shared' }, 201)).id;
  await h.stop(app);

  log('access: the guest (cli user:create, member:add, token:create)');
  const guestId = await cli(h, dataDir, [
    'user:create',
    '--name',
    'Guest Reader',
    '--email',
    'guest@bench.example',
  ]);
  await cli(h, dataDir, ['member:add', '--org', org, '--user', guestId, '--role', 'read']);
  const guestToken = (await cli(h, dataDir, ['token:create', '--user', guestId, '--label', 'bench'])).split(
    ' ',
  )[1];
  log(`access: an organization of ${L.fmtInt(SIZES.members)} members, appended to the log`);
  const membersOrg = await cli(h, dataDir, ['org:create', '--title', 'Members', '--owner', admin]);
  appendMembers(dataDir, membersOrg, SIZES.members);

  app = await h.startApp(dataDir, { port: app.port, token, label: 'access' });
  app.token = token;
  await settled(app);
  await call(app, 'PATCH', `/v1/orgs/${org}/members/${guestId}`, { role: null }, 200);
  const team = await call(app, 'PUT', `/v1/orgs/${org}/teams`, { title: 'Readers', members: [guestId] }, 201);
  for (const tree of trees) {
    await call(app, 'POST', `/v1/collections/${tree.a}/permissions`, { role: 'read', teams: [team.id] }, 204);
  }
  const guest = await call(app, 'GET', `/v1/orgs/${org}/members/${guestId}`, undefined, 200);
  if (guest.role !== null) throw new Error(`the guest has role ${guest.role}`);
  const seen = await call(app, 'GET', `/v1/spaces/${ids[0]}`, undefined, 200, guestToken);
  if (!seen.permissions?.view || seen.permissions.edit) throw new Error('the guest does not read the space');
  await call(app, 'GET', `/v1/spaces/${unshared}`, undefined, 404, guestToken);
  const count = (await call(app, 'GET', `/v1/orgs/${membersOrg}/members?limit=1`)).count;
  if (count !== SIZES.members + 1) throw new Error(`the members organization has ${count} members`);
  return { app, org, ids, guestToken, membersOrg, seedMs: Date.now() - started };
}

/* ------------------------------------------------------------------ scenarios */

async function accessScenarios(results, h) {
  const dataDir = join(h.work, 'access');
  const token = `bench_${randomBytes(24).toString('hex')}`;
  const ctx = await seed(h, dataDir, token);
  const { app } = ctx;
  results.access = { seedMs: ctx.seedMs, dataDir };

  if (h.wants('B8')) {
    await h.attempt(results, ['B8'], async () => {
      const spaces = {};
      await L.mapLimit(ctx.ids, 16, async (id) => {
        spaces[id] = await call(app, 'GET', `/v1/spaces/${id}`, undefined, 200, ctx.guestToken);
      });
      results.access.spaceBytes = Buffer.byteLength(JSON.stringify(spaces[ctx.ids[0]]));
      const bare = await h.startBare({ spaces }, 'bare-access');
      try {
        const path = `/v1/spaces/${ctx.ids[1]}`;
        const same =
          (await L.request(app.port, 'GET', path, { token: ctx.guestToken })).text ===
          (await L.request(bare.port, 'GET', path)).text;
        if (!same) throw new Error('the bare server does not answer the same space body');
        const config = () => ({ mode: 'get-space', ids: ctx.ids, token: ctx.guestToken });
        results.B8 = await h.scenario('B8', [
          { kind: 'bare', server: bare, config },
          { kind: 'app', server: app, config },
        ]);
      } finally {
        await h.stop(bare);
      }
    });
  }

  if (h.wants('B9')) {
    await h.attempt(results, ['B9'], async () => {
      const searches = prefixes(SIZES.queries, SIZES.members);
      const bodies = {};
      let bytes = 0;
      let matched = 0;
      await L.mapLimit(searches, 8, async (search) => {
        const path = `/v1/orgs/${ctx.membersOrg}/members?search=${encodeURIComponent(search)}`;
        const body = await call(app, 'GET', path, undefined, 200);
        bodies[search] = body;
        bytes += Buffer.byteLength(JSON.stringify(body));
        matched += body.count;
      });
      results.access.search = {
        queries: searches.length,
        meanBytes: bytes / searches.length,
        meanMatches: matched / searches.length,
      };
      const bare = await h.startBare({ members: bodies }, 'bare-members');
      try {
        const path = `/v1/orgs/${ctx.membersOrg}/members?search=${encodeURIComponent(L.mixedCase(searches[0]))}`;
        const same =
          (await L.request(app.port, 'GET', path, { token })).text ===
          (await L.request(bare.port, 'GET', path)).text;
        if (!same) throw new Error('the bare server does not answer the same members body');
        const config = () => ({ mode: 'member-search', org: ctx.membersOrg, searches, token });
        results.B9 = await h.scenario('B9', [
          { kind: 'bare', server: bare, config },
          { kind: 'app', server: app, config },
        ]);
        results.B9.repeats = repeatShare(searches, Math.max(...results.B9.runs.app.map((r) => r.total)));
      } finally {
        await h.stop(bare);
      }
    });
  }
  await h.stop(app);
  return { dataDir, token, ctx };
}

/**
 * The share of `sent` requests the response cache (keyed by URL) could answer at most: a search of n
 * letters has 2^n spellings, each drawn uniformly.
 */
function repeatShare(searches, sent) {
  const perSearch = sent / searches.length;
  let distinct = 0;
  for (const s of searches) {
    const spellings = 2 ** [...s].filter((c) => c.toUpperCase() !== c.toLowerCase()).length;
    distinct += spellings * (1 - Math.exp(-perSearch / spellings));
  }
  return 1 - distinct / sent;
}

/** The load of a scenario as the profiler runs it (test/bench/run.js's profiling). */
function profileConfig(name, ctx, token) {
  if (name === 'B8') return { mode: 'get-space', ids: ctx.ids, token: ctx.guestToken };
  return {
    mode: 'member-search',
    org: ctx.membersOrg,
    searches: prefixes(SIZES.queries, SIZES.members),
    token,
  };
}

/* ------------------------------------------------------------------ report */

function evaluateAccess(results, row) {
  const ms = (v) => `${L.fmt(v)} ms`;
  const { B8, B9 } = results;
  if (B8) {
    row(
      'B8',
      NAMES.B8,
      `${L.fmtInt(B8.app.okPerSec)} req/s; p50 ${ms(B8.app.p50)}, p99 ${ms(B8.app.p99)}`,
      `${L.fmtInt(B8.bare.okPerSec)} req/s; p50 ${ms(B8.bare.p50)}, p99 ${ms(B8.bare.p99)}`,
      `${L.pct(B8.ratio)} of req/s; p99 ×${L.fmt(B8.app.p99 / B8.bare.p99)}`,
      TARGETS.B8,
      B8.ratio >= 0.45 && B8.app.p99 <= 25 && B8.app.non2xx === 0 && B8.app.errors === 0,
      `space body ${L.fmtInt(results.access.spaceBytes)} bytes`,
    );
  }
  if (B9) {
    const s = results.access.search;
    row(
      'B9',
      NAMES.B9,
      `${L.fmtInt(B9.app.okPerSec)} req/s; p50 ${ms(B9.app.p50)}, p99 ${ms(B9.app.p99)}`,
      `${L.fmtInt(B9.bare.okPerSec)} req/s; p50 ${ms(B9.bare.p50)}, p99 ${ms(B9.bare.p99)}`,
      `${L.pct(B9.ratio)} of req/s; p99 ×${L.fmt(B9.app.p99 / B9.bare.p99)}`,
      TARGETS.B9,
      B9.ratio >= 0.3 && B9.app.non2xx === 0 && B9.app.errors === 0,
      `${L.fmtInt(s.queries)} prefixes, ${L.fmt(s.meanMatches, 0)} matching members and ${L.fmtInt(s.meanBytes)} bytes per body on average; ` +
        `cache hits: ${L.pct(B9.repeats)} of requests at most`,
    );
  }
}

/** The Method bullets of BENCHMARKS.md for these scenarios. */
function method() {
  return [
    `- Access (\`test/bench/access.js\`, its own server and data directory): ${SIZES.trees} trees of collections A > B > C with`,
    `  ${L.fmtInt(SIZES.spaces)} spaces spread under their C (through the API); a user added by the CLI as a \`read\` member, given an`,
    '  API token by the CLI, then made a guest (`PATCH /v1/orgs/{id}/members/{userId}` `{role: null}`) and put in a team',
    '  that is granted `read` on every A (`POST /v1/collections/{id}/permissions`).',
    '- B8: that guest GETs a random one of the spaces (each reached only through the grant three levels up);',
    '  the bare server answers the bodies the guest was served, by id.',
    `- B9: an organization of ${L.fmtInt(SIZES.members)} members (distinct generated names; their UserCreated and MemberAdded`,
    '  events appended to the log with the server stopped, as the CLI writes them, then projected by the server); its',
    `  admin GETs \`/v1/orgs/{id}/members?search=…\` with a random one of up to ${L.fmtInt(SIZES.queries)} distinct prefixes (${PREFIX_MIN} to ${PREFIX_MAX}`,
    '  letters) of display names, each letter in a random case (the search ignores case: the same body, another URL,',
    '  so that the response cache rarely answers); the bare server answers the body of the prefix in lower case.',
  ];
}

module.exports = {
  NAMES,
  TARGETS,
  SIZES,
  accessScenarios,
  profileConfig,
  person,
  prefixes,
  evaluateAccess,
  method,
};
