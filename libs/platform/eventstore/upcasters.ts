import type { RecordedEvent } from './event-store.port';

type Upcaster = (data: unknown) => unknown;

/** Upcasters by event type and the schema version they read; old events are upcast when read, never rewritten. */
const upcasters = new Map<string, Map<number, Upcaster>>();

export function registerUpcaster(type: string, fromVersion: number, upcaster: Upcaster): void {
  const byVersion = upcasters.get(type) ?? new Map<number, Upcaster>();
  byVersion.set(fromVersion, upcaster);
  upcasters.set(type, byVersion);
}

/** Brings an event to the newest schema version its type has an upcaster chain for. */
export function upcast<E extends RecordedEvent>(event: E): E {
  const byVersion = upcasters.get(event.type);
  if (!byVersion) return event;
  let { data } = event;
  let version = event.metadata.schemaVersion;
  for (let step = byVersion.get(version); step; step = byVersion.get(version)) {
    data = step(data);
    version += 1;
  }
  if (version === event.metadata.schemaVersion) return event;
  return { ...event, data, metadata: { ...event.metadata, schemaVersion: version } };
}
