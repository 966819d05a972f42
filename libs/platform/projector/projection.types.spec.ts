import type { DomainEvent } from '../domain/decider';
import { collectionName, type Doc } from '../readstore/read-store.port';
import { projection } from './projection';

/*
 * What the compiler refuses in a projection's declaration. `tsc --noEmit` (npm test) checks this file:
 * each `@ts-expect-error` fails the check if the line below it compiles.
 */

type ThingEvent =
  | DomainEvent<'ThingCreated', { thingId: string; title: string }>
  | DomainEvent<'ThingRenamed', { thingId: string; title: string; renamedAt: string }>
  | DomainEvent<'ThingDeleted', { thingId: string }>;

interface ThingDoc extends Doc {
  title: string;
  renamedAt: string | null;
}

const THINGS = collectionName<ThingDoc>('things');

/** `true` only when `A` and `B` are the same type. */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const same = <A, B>(proof: Same<A, B>) => proof;

const things = projection<ThingEvent>('things', [{ collection: THINGS, fields: ['title'] }], {
  ThingCreated: async (e, ctx) => {
    await ctx.put(THINGS, { id: e.data.thingId, title: e.data.title, renamedAt: null });
  },
  ThingDeleted: async (e, ctx) => {
    await ctx.delete(THINGS, e.data.thingId);
  },
});

projection<ThingEvent>('typed', [], {
  ThingRenamed: async (e) => {
    same<typeof e.type, 'ThingRenamed'>(true);
    same<typeof e.data, { thingId: string; title: string; renamedAt: string }>(true);
  },
});

projection<ThingEvent>('wrong-field', [], {
  ThingCreated: async (e, ctx) => {
    // @ts-expect-error ThingCreated has no `renamedAt`
    await ctx.put(THINGS, { id: e.data.thingId, title: e.data.title, renamedAt: e.data.renamedAt });
  },
});

projection<ThingEvent>('wrong-type', [], {
  // @ts-expect-error ThingMoved is not an event of the union
  ThingMoved: async () => {},
});

// biome-ignore lint/suspicious/noExplicitAny: the union a projection must refuse
type LooseEvent = ThingEvent | DomainEvent<'ThingTouched', any>;

projection<LooseEvent>('loose', [], {
  // @ts-expect-error an event of the union has data of type `any`
  ThingTouched: async () => {},
});

// biome-ignore lint/suspicious/noExplicitAny: the union a projection must refuse
projection<any>('any', [], {
  // @ts-expect-error the union itself is `any`
  ThingTouched: async () => {},
});

// @ts-expect-error without its union a projection's handlers do not compile: none is an event it knows
projection('unnamed', [], { ThingCreated: async () => {} });

describe('projection', () => {
  it('handles the types its handlers are declared for', () => {
    expect(things.handles).toEqual(['ThingCreated', 'ThingDeleted']);
  });
});
