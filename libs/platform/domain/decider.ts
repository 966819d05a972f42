/**
 * A decider is the whole behaviour of an aggregate as pure functions: fold past events into state,
 * and decide which new events a command produces (or throw a DomainError).
 */
export interface Decider<Command, Event extends DomainEvent, State> {
  initialState: State;
  evolve(state: State, event: Event): State;
  decide(command: Command, state: State): Event[];
  /**
   * Whether a command makes its stream under an id just drawn (a new comment): it is decided on the
   * initial state without reading the log first. Should the stream exist after all, its append (no
   * stream expected) fails and the command is decided again on what the log holds.
   */
  startsStream?(command: Command): boolean;
}

/**
 * One function per command type, each given only its own command: a command type without its function
 * does not compile. `decideBy` makes a decider's `decide` of them.
 */
export type Decisions<Command extends { type: string }, Event, State> = {
  [K in Command['type']]: (command: Extract<Command, { type: K }>, state: State) => Event[];
};

/** A decider's `decide`: the function of the command's type decides it. */
export function decideBy<Command extends { type: string }, Event, State>(
  decisions: Decisions<Command, Event, State>,
): (command: Command, state: State) => Event[] {
  return (command, state) => {
    if (!Object.hasOwn(decisions, command.type)) throw invalid(`unknown command ${command.type}`);
    const decide = decisions[command.type as Command['type']] as (command: Command, state: State) => Event[];
    return decide(command, state);
  };
}

/** A domain event before it is stored: the type string equals its TypeScript name. */
export interface DomainEvent<T extends string = string, D = unknown> {
  type: T;
  data: D;
}

export type DomainErrorKind =
  | 'not_found'
  | 'unauthorized'
  | 'conflict'
  | 'invalid'
  | 'forbidden'
  | 'gone'
  | 'precondition_failed'
  /** Well formed and allowed, but past what the server does for one request (a budget): 422. */
  | 'unprocessable'
  /** A part of the request larger than the server stores (a page body past its limit): 413. */
  | 'too_large'
  /** Not now (threads full, the server shutting down): 503, to be retried shortly. */
  | 'unavailable';

/** A rule of the domain that a command broke; mapped to an HTTP status in one place. */
export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const notFound = (message: string) => new DomainError('not_found', message);
export const conflict = (message: string) => new DomainError('conflict', message);
export const invalid = (message: string) => new DomainError('invalid', message);
export const tooLarge = (message: string) => new DomainError('too_large', message);
/** A write pinned to a version (If-Match) that is no longer the current one: 412. */
export const preconditionFailed = (message: string) => new DomainError('precondition_failed', message);

/** Folds a list of events into state. */
export function fold<C, E extends DomainEvent, S>(decider: Decider<C, E, S>, events: E[]): S {
  return events.reduce(decider.evolve, decider.initialState);
}

export const DAY_MS = 24 * 60 * 60 * 1000;
