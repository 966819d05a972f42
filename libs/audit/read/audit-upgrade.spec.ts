import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FEATURES } from '@app/composition/features';
import type { Config } from '@app/platform/config/config';
import type { EventMetadata } from '@app/platform/eventstore/event-store.port';
import { SqliteEventStore } from '@app/platform/eventstore/sqlite-event-store';
import { Urls } from '@app/platform/http/urls';
import type { Projection } from '@app/platform/projector/projection';
import { Projector } from '@app/platform/projector/projector';
import type { Doc } from '@app/platform/readstore/read-store.port';
import { SqliteReadStore } from '@app/platform/readstore/sqlite-read-store';
import type { AuditEntry } from '../domain/audit-entry';
import { AuditCatalog } from '../domain/audited-events';
import { AuditPresenter } from './audit.presenter';
import { AUDIT_ENTRIES, AUDIT_RESOURCES, auditProjection } from './audit.projection';
import { AuditQueries } from './audit.queries';

const catalog = new AuditCatalog(FEATURES);
const current = auditProjection(catalog);

/** Names the entries of change request events held before actions came from the declared resources. */
const EARLIER_NAMES: Record<string, string> = {
  'change_request.created': 'change.request_created',
  'change_request.merged': 'change.request_merged',
};

/**
 * The audit projection as a version before wrote it: the same entries, kept in `audit_events`, with the
 * change request actions split after their first word.
 */
const earlier: Projection = {
  ...current,
  collections: ['audit_events', AUDIT_RESOURCES],
  indexes: [],
  backfillWhen: undefined,
  apply: (event, ctx) =>
    current.apply(event, {
      ...ctx,
      put: async <T extends Doc>(collection: string, doc: T) => {
        if (collection !== AUDIT_ENTRIES) return ctx.put(collection, doc);
        const entry = doc as unknown as AuditEntry;
        await ctx.put('audit_events', { ...entry, action: EARLIER_NAMES[entry.action] ?? entry.action });
      },
    }),
};

const metadata = (n: number): EventMetadata => ({
  schemaVersion: 1,
  occurredAt: `2026-01-01T00:00:0${n}.000Z`,
  actor: { userId: 'u1', source: 'api' },
  correlationId: `c${n}`,
  causationId: null,
});

describe('audit entries projected before actions came from the declared resources', () => {
  let dir: string;
  let events: SqliteEventStore;
  let views: SqliteReadStore;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'audit-upgrade-'));
    events = new SqliteEventStore({ path: join(dir, 'events.sqlite') });
    views = new SqliteReadStore({ path: join(dir, 'views.sqlite') });
    const log: [string, string, unknown][] = [
      ['user-u1', 'UserCreated', { userId: 'u1', displayName: 'Ada' }],
      ['organization-o1', 'OrganizationCreated', { organizationId: 'o1', title: 'Org' }],
      [
        'space-content-s1',
        'ChangeRequestCreated',
        { changeRequestId: 'cr1', organization: 'o1', subject: 'Fix' },
      ],
      ['space-content-s1', 'ChangeRequestMerged', { changeRequestId: 'cr1' }],
    ];
    for (const [i, [stream, type, data]] of log.entries()) {
      const id = `0b6f6c1e-8f43-4c43-9a4e-2d8f1c7b9a1${i}`;
      await events.append(stream, [{ id, type, data, metadata: metadata(i) }], 'any');
    }
  });
  afterEach(async () => {
    await events.close();
    await views.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function start(projection: Projection): Promise<void> {
    const projector = new Projector(events, views, [projection]);
    await projector.start();
    await projector.waitFor(await events.headPosition());
    await projector.stop();
  }

  const actions = async (collection: string) =>
    (await views.all<AuditEntry>(collection)).map((entry) => entry.action).sort();

  it('are rebuilt from the log at the first start, and listed and filtered by their actions now', async () => {
    await start(earlier);
    expect(await actions('audit_events')).toEqual([
      'change.request_created',
      'change.request_merged',
      'organization.created',
    ]);
    const generation = await views.generation();

    await start(current);
    expect(await views.generation()).toBeGreaterThan(generation);
    expect(await views.all('audit_events')).toEqual([]);
    expect(await actions(AUDIT_ENTRIES)).toEqual([
      'change_request.created',
      'change_request.merged',
      'organization.created',
    ]);
    const presenter = new AuditPresenter(new Urls({ publicUrl: 'https://docs.test' } as Config));
    const queries = new AuditQueries(views, events, catalog, presenter);
    const merged = await queries.list('o1', { action: 'change_request.merged' });
    expect(merged.items.map((e) => [e.action, e.target.id, e.target.label])).toEqual([
      ['change_request.merged', 'cr1', 'Fix'],
    ]);
    expect((await queries.list('o1', { action: 'change.request_merged' })).items).toEqual([]);

    // Once rebuilt, a start rebuilds nothing.
    const rebuilt = await views.generation();
    await start(current);
    expect(await views.generation()).toBe(rebuilt);
  });

  it('are not rebuilt on views that never held them', async () => {
    await start(current);
    const generation = await views.generation();
    expect(await actions(AUDIT_ENTRIES)).toHaveLength(3);
    await start(current);
    expect(await views.generation()).toBe(generation);
  });
});
