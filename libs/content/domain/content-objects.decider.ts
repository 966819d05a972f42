import type { Hash } from '@app/documents/tree/hash';
import { type Decider, type Decisions, decideBy } from '@app/platform/domain/decider';

/**
 * The objects a space's content is made of, appended to the log before the change that names them
 * (stream `space-objects-<spaceId>`): immutable and named by the hash of their canonical JSON, so
 * storing one twice is harmless, and a change refused after its objects were stored leaves only
 * objects nothing points to. They are not audited: the change that uses them is.
 */
export type ContentObjectsEvent = {
  type: 'ContentObjectsStored';
  /** Canonical JSON of each object by its hash: what the hash is computed over, stored as it is. */
  data: { spaceId: string; objects: Record<Hash, string> };
};

export type ContentObjectsCommand = {
  type: 'StoreContentObjects';
  spaceId: string;
  objects: Record<Hash, string>;
};

/** What each command decides. */
const decisions: Decisions<ContentObjectsCommand, ContentObjectsEvent, null> = {
  StoreContentObjects: (command) =>
    Object.keys(command.objects).length === 0
      ? []
      : [{ type: 'ContentObjectsStored', data: { spaceId: command.spaceId, objects: command.objects } }],
};

export const contentObjectsDecider: Decider<ContentObjectsCommand, ContentObjectsEvent, null> = {
  initialState: null,
  decide: decideBy(decisions),
  evolve: (state) => state,
};

export const contentObjectsStream = (spaceId: string) => `space-objects-${spaceId}`;
