import { type AppendResult, type ExpectedRevision, WrongExpectedRevisionError } from './event-store.port';

/** An event as the log stores it: data and metadata already JSON, the data maybe packed (`packData`). */
export interface SerializedEvent {
  id: string;
  type: string;
  data: string | Uint8Array;
  metadata: string;
}

/** One stream's append as it crosses to the thread that commits the log (appends go over in groups, `WireAppend[]`, all or nothing). */
export interface WireAppend {
  stream: string;
  expected: ExpectedRevision;
  events: SerializedEvent[];
}

/** Errors cross threads as data; the kinds a caller tells apart keep their class on the other side. */
export type WireError =
  | { kind: 'wrong-expected'; stream: string; expected: ExpectedRevision; actual: number | 'no_stream' }
  | { kind: 'other'; message: string };

export type WireOutcome = { ok: true; results: AppendResult[] } | { ok: false; error: WireError };

/**
 * Commits appends to the log elsewhere (another thread), answering one outcome per append, in order. An
 * append is one stream's or several (`appendInOrder`), written all or nothing.
 */
export interface EventWriter {
  commit(appends: WireAppend[][]): Promise<WireOutcome[]>;
}

export function toWireError(error: unknown): WireError {
  if (error instanceof WrongExpectedRevisionError)
    return { kind: 'wrong-expected', stream: error.stream, expected: error.expected, actual: error.actual };
  return { kind: 'other', message: error instanceof Error ? error.message : String(error) };
}

export function fromWireError(error: WireError): Error {
  if (error.kind === 'wrong-expected')
    return new WrongExpectedRevisionError(error.stream, error.expected, error.actual);
  return new Error(error.message);
}
