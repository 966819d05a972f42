import type { Hash } from '@app/documents/tree/hash';
import { type Decider, type Decisions, decideBy } from '@app/platform/domain/decider';

/**
 * The objects a space's content is made of, appended to the log before the change that names them
 * (stream `space-objects-<spaceId>`): immutable and named by the hash of their canonical JSON, so
 * storing one twice is harmless, and a change refused after its objects were stored leaves only
 * objects nothing points to. They are not audited: the change that uses them is.
 *
 * A change's objects take as many events as they need, each under `OBJECTS_EVENT_BYTES`, so that each
 * fits in an append of its own (`MAX_APPEND_BYTES`): a change of many pages is not refused for their
 * sum, only for what its own event weighs.
 */
export type ContentObjectsEvent = {
  type: 'ContentObjectsStored';
  /**
   * Each object by its hash as libs/documents/tree/stored-objects.ts writes it: canonical JSON (what the
   * hash is computed over), deflated, or, for an object too large for one event, its parts under ids
   * of their own (`<hash>.<n>`) stored before it.
   */
  data: { spaceId: string; objects: Record<Hash, string> };
};

export type ContentObjectsCommand = {
  type: 'StoreContentObjects';
  spaceId: string;
  /** In the order to store them (parts before the objects they make). */
  objects: Record<Hash, string>;
};

/** The most the objects of one event weigh as JSON: an append holds one, its metadata and room to spare. */
export const OBJECTS_EVENT_BYTES = 768 * 1024;

/** The objects in events of at most `OBJECTS_EVENT_BYTES` each (one larger object alone in its own), in order. */
export function objectEvents(
  spaceId: string,
  objects: Record<Hash, string>,
  maxBytes = OBJECTS_EVENT_BYTES,
): ContentObjectsEvent[] {
  const events: ContentObjectsEvent[] = [];
  let current: Record<Hash, string> = {};
  let bytes = 0;
  for (const id in objects) {
    const stored = objects[id];
    // "id":"stored", as JSON writes them.
    const weight = Buffer.byteLength(JSON.stringify(stored)) + id.length + 4;
    if (bytes > 0 && bytes + weight > maxBytes) {
      events.push({ type: 'ContentObjectsStored', data: { spaceId, objects: current } });
      current = {};
      bytes = 0;
    }
    current[id] = stored;
    bytes += weight;
  }
  if (bytes > 0) events.push({ type: 'ContentObjectsStored', data: { spaceId, objects: current } });
  return events;
}

/** What each command decides. */
const decisions: Decisions<ContentObjectsCommand, ContentObjectsEvent, null> = {
  StoreContentObjects: (command) => objectEvents(command.spaceId, command.objects),
};

export const contentObjectsDecider: Decider<ContentObjectsCommand, ContentObjectsEvent, null> = {
  initialState: null,
  decide: decideBy(decisions),
  evolve: (state) => state,
};

export const contentObjectsStream = (spaceId: string) => `space-objects-${spaceId}`;
