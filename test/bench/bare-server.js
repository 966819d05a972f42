/*
 * The ceiling: bare Fastify (the version the application runs on) answering the same routes with the same
 * JSON bodies, held in memory, with no auth, no Nest, no storage. Bodies are objects that Fastify
 * serializes per request, as the application's handlers return objects.
 *
 *   GET   /v1/spaces/:spaceId              the space JSON the application returned for that id
 *   GET   /v1/orgs/:organizationId/spaces  the list body the application returned (limit=100)
 *   PATCH /v1/spaces/:spaceId              echo: the space with the JSON body merged in and a new updatedAt
 *   GET   /v1/orgs/:organizationId/members the body the application returned for `search` in lower case
 *   GET   any other URL of `bodies`        the body the application returned for that URL (content reads)
 *
 * env: PORT, BARE_FIXTURE (JSON file written by run.js:
 *   { spaces: {id: body}, list: body, bodies?: {url: body}, members?: {search: body} })
 */
const { readFileSync } = require('node:fs');
const Fastify = require('fastify');

const fixture = JSON.parse(readFileSync(process.env.BARE_FIXTURE, 'utf8'));
const spaces = new Map(Object.entries(fixture.spaces ?? {}));
const bodies = new Map(Object.entries(fixture.bodies ?? {}));
const members = new Map(Object.entries(fixture.members ?? {}));
const notFound = { error: { code: 404, message: 'Space not found' } };

const app = Fastify({ logger: false, bodyLimit: 1024 * 1024 });

app.get('/ready', async () => ({ status: 'ready' }));

app.get('/v1/spaces/:spaceId', async (req, reply) => {
  const space = spaces.get(req.params.spaceId);
  if (!space) return reply.code(404).send(notFound);
  return space;
});

app.get('/v1/orgs/:organizationId/spaces', async () => fixture.list);

app.get('/v1/orgs/:organizationId/members', async (req, reply) => {
  const body = members.get(String(req.query.search ?? '').toLowerCase());
  if (!body) return reply.code(404).send({ error: { code: 404, message: 'Not found' } });
  return body;
});

app.patch('/v1/spaces/:spaceId', async (req, reply) => {
  const space = spaces.get(req.params.spaceId);
  if (!space) return reply.code(404).send(notFound);
  return { ...space, ...req.body, updatedAt: new Date().toISOString() };
});

app.get('/*', async (req, reply) => {
  const body = bodies.get(req.url);
  if (!body) return reply.code(404).send({ error: { code: 404, message: 'Not found' } });
  return body;
});

app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' }).catch((error) => {
  process.stderr.write(`bare server: ${error.message}\n`);
  process.exit(1);
});
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
