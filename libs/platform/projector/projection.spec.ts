import type { DomainEvent } from '../domain/decider';
import { collectionName, type Doc } from '../readstore/read-store.port';
import { documents, projection } from './projection';
import { givenProjection, recorderOf } from './projection.testing';

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
  state: 'new' | 'renamed';
  renamedAt: string | null;
}

const THINGS = collectionName<ThingDoc>('things');
const things = documents(THINGS);

/** `true` only when `A` and `B` are the same type. */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const same = <A, B>(proof: Same<A, B>) => proof;

const thingProjection = projection<ThingEvent>('things', [{ collection: THINGS, fields: ['title'] }], {
  ThingCreated: things.put((e) => ({
    id: e.data.thingId,
    title: e.data.title,
    state: 'new',
    renamedAt: null,
  })),
  ThingRenamed: things.update(
    (e) => e.data.thingId,
    (doc, e) => ({ ...doc, title: e.data.title, state: 'renamed', renamedAt: e.data.renamedAt }),
  ),
  ThingDeleted: things.delete((e) => e.data.thingId),
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
    await ctx.put(THINGS, { id: e.data.thingId, title: '', state: 'new', renamedAt: e.data.renamedAt });
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

// A helper's documents are the collection's, its events those of the handler's type.
projection<ThingEvent>('wrong-document', [], {
  // @ts-expect-error `title` is missing from the document
  ThingCreated: things.put((e) => ({ id: e.data.thingId, state: 'new', renamedAt: null })),
  ThingRenamed: things.update(
    (e) => e.data.thingId,
    // @ts-expect-error `state` is not one of the document's
    (doc) => ({ ...doc, state: 'moved' }),
  ),
});
projection<ThingEvent>('wrong-event', [], {
  ThingDeleted: things.update(
    (e) => e.data.thingId,
    // @ts-expect-error ThingDeleted has no `title`
    (doc, e) => ({ ...doc, title: e.data.title }),
  ),
});

const thing = recorderOf<ThingEvent>();

describe('documents', () => {
  it('puts the document an event builds, replaces the one it names, deletes it', async () => {
    const scenario = givenProjection(thingProjection).given(
      thing('ThingCreated', { thingId: 't1', title: 'One' }),
      thing('ThingCreated', { thingId: 't2', title: 'Two' }),
      thing('ThingRenamed', { thingId: 't1', title: 'First', renamedAt: 't' }),
      thing('ThingDeleted', { thingId: 't2' }),
    );
    await scenario.thenDocuments(THINGS, [{ id: 't1', title: 'First', state: 'renamed', renamedAt: 't' }]);
    await scenario.thenReplayChangesNothing();
    await scenario.thenRebuildMatches();
  });

  it('updates nothing when the document is not there', async () => {
    const scenario = givenProjection(thingProjection).given(
      thing('ThingRenamed', { thingId: 't1', title: 'First', renamedAt: 't' }),
    );
    await scenario.thenDocuments(THINGS, []);
  });

  it('lets a handler change a document itself', async () => {
    const stamped = projection<ThingEvent>('stamped', [{ collection: THINGS, fields: ['title'] }], {
      ThingCreated: things.put((e) => ({
        id: e.data.thingId,
        title: e.data.title,
        state: 'new',
        renamedAt: null,
      })),
      ThingDeleted: async (e, ctx) => {
        await things.change(ctx, e.data.thingId, (doc) => ({ ...doc, title: `${doc.title} (gone)` }));
        await things.change(ctx, 'none', (doc) => ({ ...doc, title: 'never' }));
      },
    });
    const scenario = givenProjection(stamped).given(
      thing('ThingCreated', { thingId: 't1', title: 'One' }),
      thing('ThingDeleted', { thingId: 't1' }),
    );
    await scenario.thenDocuments(THINGS, [{ id: 't1', title: 'One (gone)', state: 'new', renamedAt: null }]);
  });
});

describe('projection', () => {
  it('handles the types its handlers are declared for', () => {
    expect(thingProjection.handles).toEqual(['ThingCreated', 'ThingRenamed', 'ThingDeleted']);
  });
});
