import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DomainEvent } from '../domain/decider';
import { projection } from '../projector/projection';
import { CHECKPOINT, Projector } from '../projector/projector';
import { SqliteReadStore } from '../readstore/sqlite-read-store';
import type { EventMetadata, NewEvent } from './event-store.port';
import { SqliteEventStore } from './sqlite-event-store';
import { registerUpcaster, upcast } from './upcasters';

/*
 * Event types of this file only. Jest gives each test file its own module registry, so the upcasters
 * registered here end with the file and no other suite ever sees them.
 */
const RENAMED = 'UpcasterSpecThingNamed';
const UNTOUCHED = 'UpcasterSpecThingTouched';

/** Schema 0 had `name`, schema 1 `label`, schema 2 (current) `title` and `subtitle`. */
registerUpcaster(RENAMED, 0, (data) => {
  const { name } = data as { name: string };
  return { label: name };
});
registerUpcaster(RENAMED, 1, (data) => {
  const { label } = data as { label: string };
  return { title: label, subtitle: null };
});

/** The events as the projection reads them: upcast to the current schema. */
type ThingEvent =
  | DomainEvent<typeof RENAMED, { title: string; subtitle: string | null }>
  | DomainEvent<typeof UNTOUCHED, object>;

const things = projection<ThingEvent>(
  'upcaster-spec-things',
  [],
  {
    [RENAMED]: async (e, ctx) => {
      await ctx.put('things', {
        id: e.stream,
        title: e.data.title,
        subtitle: e.data.subtitle,
        schemaVersion: e.metadata.schemaVersion,
      });
    },
    [UNTOUCHED]: async (e, ctx) => {
      const doc = await ctx.get('things', e.stream);
      if (doc) await ctx.put('things', { ...doc, touched: e.metadata.schemaVersion });
    },
  },
  ['things'],
);

function event(type: string, schemaVersion: number, data: unknown): NewEvent {
  const metadata: EventMetadata = {
    schemaVersion,
    occurredAt: '2024-01-01T00:00:00.000Z',
    actor: { source: 'script' },
    correlationId: 'upcaster-spec',
    causationId: null,
  };
  return { id: randomUUID(), type, data, metadata };
}

describe('upcasting', () => {
  let dir: string;
  let events: SqliteEventStore;
  let views: SqliteReadStore;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'upcasters-'));
    events = new SqliteEventStore({ path: join(dir, 'events.sqlite') });
    views = new SqliteReadStore({ path: join(dir, 'views.sqlite') });
  });

  afterEach(async () => {
    await events.close();
    await views.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('brings an event through the chain to the newest schema, and leaves others as they are', () => {
    const recorded = { ...event(RENAMED, 0, { name: 'Old' }), stream: 's', revision: 0, position: 1 };
    expect(upcast(recorded)).toMatchObject({
      data: { title: 'Old', subtitle: null },
      metadata: { schemaVersion: 2 },
    });
    const current = {
      ...event(RENAMED, 2, { title: 'New', subtitle: 'x' }),
      stream: 's',
      revision: 1,
      position: 2,
    };
    expect(upcast(current)).toBe(current);
    const other = { ...event(UNTOUCHED, 1, {}), stream: 's', revision: 2, position: 3 };
    expect(upcast(other)).toBe(other);
  });

  it('a rebuild replays old-schema events from the log upcast, exactly as the live projector applied them', async () => {
    await events.append('thing-a', [event(RENAMED, 0, { name: 'From zero' })], 'no_stream');
    await events.append('thing-b', [event(RENAMED, 1, { label: 'From one' })], 'no_stream');
    await events.append('thing-c', [event(RENAMED, 2, { title: 'Current', subtitle: 'kept' })], 'no_stream');
    await events.append('thing-a', [event(UNTOUCHED, 1, {})], 0);
    const projector = new Projector(events, views, [things]);
    await projector.start();
    await projector.waitFor(await events.headPosition());
    await projector.stop();
    const live = await views.all('things');

    // The log still holds the old schemas: upcasting happens on read, never by rewriting.
    const stored = await events.readAll(0, 10);
    expect(stored.map((e) => e.metadata.schemaVersion)).toEqual([0, 1, 2, 1]);

    const replayed = await projector.rebuild();
    expect(replayed).toBe(4);
    expect(await views.generation()).toBeGreaterThan(1);
    const rebuilt = await views.all('things');
    expect(rebuilt).toEqual([
      { id: 'thing-a', title: 'From zero', subtitle: null, schemaVersion: 2, touched: 1, _pos: 4 },
      { id: 'thing-b', title: 'From one', subtitle: null, schemaVersion: 2, _pos: 2 },
      { id: 'thing-c', title: 'Current', subtitle: 'kept', schemaVersion: 2, _pos: 3 },
    ]);
    expect(rebuilt).toEqual(live);
    expect(await views.getCheckpoint(CHECKPOINT)).toBe(4);
  });
});
