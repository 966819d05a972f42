import type { EventSource } from '../eventstore/event-store.port';

/** Who asks for a change and why: carried from the request (or job) into every event's metadata. */
export interface CommandContext {
  userId?: string;
  tokenId?: string;
  source: EventSource;
  correlationId: string;
  causationId: string | null;
  /** Expected stream revision from `If-Match`; a mismatch is a 412 instead of a retry (null: none, as JSON has it). */
  ifMatch?: number | null;
}

/** The outcome of a write: where it landed in the log, so a read can wait until views include it. */
export interface WriteResult {
  position: number;
  revision: number;
}

/** The context of a change asked for over the API by `viewer`. */
export const apiContext = (viewer: {
  userId: string;
  tokenId: string;
  correlationId: string;
}): CommandContext => ({
  userId: viewer.userId,
  tokenId: viewer.tokenId,
  source: 'api',
  correlationId: viewer.correlationId,
  causationId: null,
});
