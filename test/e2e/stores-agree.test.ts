import { randomUUID } from 'node:crypto';
import { ManualClock } from '@app/platform/clock/clock';
import { addOrganization, type TestApp, withTestApps } from '../support/app-harness';
import { describeIf, MONGO_WIRE } from '../support/describe-if';

// Not in e2e-mongo: it runs the embedded views and MongoDB-wire side by side itself.

/** One step of the script: a request, with `$name` standing for ids found by earlier steps. */
type Step = [method: string, path: string, body?: unknown, keep?: Record<string, string>];

/** Requests over every read model, the same on both apps; `keep` names ids of the answer for later paths. */
const SCRIPT: Step[] = [
  // (Not `GET /v1/orgs`: it lists in the order of the organizations' ids, which are random.)
  ['GET', '/v1/orgs/$org'],
  ['POST', '/v1/orgs/$org/collections', { title: 'Guides' }, { box: 'id' }],
  ['POST', '/v1/orgs/$org/spaces', { title: 'Handbook', parent: '$box' }, { space: 'id' }],
  ['PATCH', '/v1/spaces/$space', { title: 'Handbook 2', emoji: '📘' }],
  ['POST', '/v1/spaces/$space/duplicate', undefined, { copy: 'id' }],
  ['POST', '/v1/spaces/$copy/move', { parent: null }],
  ['GET', '/v1/orgs/$org/spaces?limit=10'],
  ['GET', '/v1/collections/$box/spaces'],
  ['GET', '/v1/orgs/$org/collections?limit=10'],
  ['DELETE', '/v1/spaces/$copy'],
  ['GET', '/v1/spaces/$copy'],
  ['POST', '/v1/spaces/$copy/restore'],
  ['POST', '/v1/spaces/$space/transfer', { organization: '$other' }],
  ['POST', '/v1/collections/$box/transfer', { organization: '$other' }],
  ['GET', '/v1/orgs/$other/spaces?limit=10'],
  ['DELETE', '/v1/collections/$box'],
  ['GET', '/v1/orgs/$org/audit-events?limit=100'],
  ['GET', '/v1/orgs/$other/audit-events?limit=100'],
  ['GET', '/v1/orgs/$org/audit-event-actions'],
];

const substitute = (text: string, ids: Record<string, string>) =>
  text.replace(/\$([a-z]+)/g, (whole, name: string) => ids[name] ?? whole);

/** The script's answers on one app, with every id and UUID replaced by its order of first appearance. */
async function answers(app: TestApp, other: string): Promise<unknown[]> {
  const ids: Record<string, string> = { org: app.organizationId, other };
  const out: unknown[] = [];
  for (const [method, path, body, keep] of SCRIPT) {
    const sent = body === undefined ? undefined : JSON.parse(substitute(JSON.stringify(body), ids));
    const reply = await app.http(method, substitute(path, ids), { body: sent });
    for (const [name, field] of Object.entries(keep ?? {}))
      ids[name] = (reply.body as Record<string, string>)[field];
    out.push({ request: `${method} ${path}`, status: reply.status, body: reply.body ?? null });
  }
  // Content revisions are random ids too.
  const revisions = [...JSON.stringify(out).matchAll(/"revision":"([A-Za-z0-9_-]+)"/g)].map(
    (match) => match[1],
  );
  const known = [app.organizationId, other, app.userId, ...Object.values(ids), ...revisions];
  const names = new Map<string, string>();
  const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
  const text = JSON.stringify(out)
    .replace(UUID, (uuid) => {
      if (!names.has(uuid)) names.set(uuid, `uuid#${names.size}`);
      return names.get(uuid) as string;
    })
    .replace(new RegExp(known.map((id) => id.replace(/[-]/g, '\\-')).join('|'), 'g'), (id) => {
      if (!names.has(id)) names.set(id, `id#${names.size}`);
      return names.get(id) as string;
    });
  return JSON.parse(text);
}

describeIf(Boolean(process.env.MONGO_URL), 'stores agree (MONGO_URL is not set)')(
  `the two read stores ${MONGO_WIRE}`,
  () => {
    it('answer the same requests alike, embedded views and views on MongoDB-wire', async () => {
      const at = Date.parse('2026-06-01T00:00:00.000Z');
      const mongo = new URL(process.env.MONGO_URL as string);
      mongo.pathname = `/agree_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
      await withTestApps(
        [
          { clock: new ManualClock(() => at), config: { mongoUrl: undefined } },
          { clock: new ManualClock(() => at), config: { mongoUrl: mongo.toString() } },
        ],
        async ([embedded, onMongo]) => {
          const [a, b] = await Promise.all([
            addOrganization(embedded).then((other) => answers(embedded, other)),
            addOrganization(onMongo).then((other) => answers(onMongo, other)),
          ]);
          expect(b).toEqual(a);
          // The script reached every read model: no answer was an error.
          expect((a as { status: number }[]).every((answer) => answer.status < 400)).toBe(true);
        },
      );
    });
  },
);
