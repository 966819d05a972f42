import { type Decider, DomainError, type DomainErrorKind, type DomainEvent, fold } from './decider';

/** The assertions available once a command has been chosen. */
export interface DeciderScenario<Event extends DomainEvent, State> {
  /** Asserts the command emits exactly these events; returns the state after evolving them. */
  thenEmits(expected: Event[]): State;
  /** Asserts the command is accepted but emits no event; returns the (unchanged) state. */
  thenNothing(): State;
  /** Asserts the command is rejected with a DomainError of this kind; returns the error. */
  thenThrows(kind: DomainErrorKind, message?: string | RegExp): DomainError;
}

export interface DeciderSpec<Command, Event extends DomainEvent, State> {
  given(events: Event[]): { when(command: Command): DeciderScenario<Event, State> };
  when(command: Command): DeciderScenario<Event, State>;
}

/**
 * Given/when/then for pure deciders: fold the `given` events into state, decide the command and
 * compare the outcome with Jest. Events are compared with `toStrictEqual`, so an `undefined` field
 * that is present in an emitted event does not pass for one that is absent.
 */
export function spec<Command, Event extends DomainEvent, State>(
  decider: Decider<Command, Event, State>,
): DeciderSpec<Command, Event, State> {
  const given = (events: Event[]) => ({
    when(command: Command): DeciderScenario<Event, State> {
      const state = fold(decider, events);
      // Deciding must not mutate the state it was given.
      const snapshot = structuredClone(state);
      const unchanged = () => expect(state).toStrictEqual(snapshot);
      const decide = () => {
        const emitted = decider.decide(command, state);
        unchanged();
        return emitted;
      };
      return {
        thenEmits(expected) {
          const emitted = decide();
          expect(emitted).toStrictEqual(expected);
          return emitted.reduce(decider.evolve, state);
        },
        thenNothing() {
          expect(decide()).toStrictEqual([]);
          return state;
        },
        thenThrows(kind, message) {
          let error: unknown;
          let emitted: Event[] | undefined;
          try {
            emitted = decide();
          } catch (thrown) {
            error = thrown;
          }
          unchanged();
          if (emitted) {
            throw new Error(
              `Expected a '${kind}' DomainError, but the command emitted ${JSON.stringify(emitted)}`,
            );
          }
          expect(error).toBeInstanceOf(DomainError);
          const domainError = error as DomainError;
          expect(domainError.kind).toBe(kind);
          if (message !== undefined) expect(domainError.message).toMatch(message);
          return domainError;
        },
      };
    },
  });
  return { given, when: (command) => given([]).when(command) };
}
