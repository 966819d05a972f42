import { conflict, type Decider, type Decisions, decideBy, notFound } from './decider';

/**
 * The decider of a resource an organization creates, changes field by field and deletes, and nothing
 * else (translation settings, SAML providers), declared once: such a resource states its names and its
 * fields' rules, and this gives the rest. One stream per resource; a resource of another organization is
 * not found, as if it did not exist; an update that changes nothing appends nothing; a deleted resource
 * is not found, for an update as for a second delete.
 */

/** What a resource's events and commands are called. */
export interface ResourceNames {
  create: string;
  update: string;
  delete: string;
  created: string;
  updated: string;
  deleted: string;
}

/** The resource's id (under its own key, `translationId`) and its organization. */
export type ResourceRef<K extends string> = { [P in K]: string } & { organization: string };

export type ResourceState<K extends string, S> =
  | { status: 'none' }
  | ({ status: 'active' } & ResourceRef<K> & S)
  | ({ status: 'deleted' } & ResourceRef<K>);

export type ResourceEvent<K extends string, S, N extends ResourceNames> =
  | { type: N['created']; data: ResourceRef<K> & S & { createdAt: string } }
  | { type: N['updated']; data: ResourceRef<K> & { changes: Partial<S>; updatedAt: string } }
  | { type: N['deleted']; data: ResourceRef<K> & { deletedAt: string } };

export type ResourceCommand<K extends string, I, N extends ResourceNames> =
  | ({ type: N['create']; input: I; at: number } & ResourceRef<K>)
  | { type: N['update']; organization: string; input: I; at: number }
  | { type: N['delete']; organization: string; at: number };

export interface ResourceRules<K extends string, S, I, N extends ResourceNames> {
  /** The resource as messages name it: `SAML provider`. */
  what: string;
  idKey: K;
  names: N;
  /** A new resource's settings, checked: a bad field throws `invalid` naming it. */
  create(input: I, at: number): S;
  /** The settings an update sets, checked; those it leaves alone are absent. */
  update(input: I, current: S, at: number): Partial<S>;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Settings hold JSON values: two are the same when they serialize the same. */
const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

export function resourceDecider<K extends string, S extends object, I, N extends ResourceNames>(
  rules: ResourceRules<K, S, I, N>,
): Decider<ResourceCommand<K, I, N>, ResourceEvent<K, S, N>, ResourceState<K, S>> {
  type Active = Extract<ResourceState<K, S>, { status: 'active' }>;
  type Event = ResourceEvent<K, S, N>;
  type Command = ResourceCommand<K, I, N>;
  type State = ResourceState<K, S>;
  const { idKey, names } = rules;
  const refOf = (state: ResourceRef<K>) =>
    ({ [idKey]: state[idKey], organization: state.organization }) as ResourceRef<K>;
  const settingsOf = (state: Active): S => {
    const {
      status: _s,
      [idKey]: _id,
      organization: _o,
      ...settings
    } = state as unknown as Record<string, unknown>;
    return settings as S;
  };
  const live = (state: ResourceState<K, S>, organization: string): Active => {
    if (state.status !== 'active' || state.organization !== organization)
      throw notFound(`${rules.what} not found`);
    return state as Active;
  };

  const create = (command: ResourceRef<K> & { input: I; at: number }, state: State): Event[] => {
    if (state.status !== 'none') throw conflict(`${rules.what} already exists`);
    const data = {
      ...refOf(command),
      ...rules.create(command.input, command.at),
      createdAt: iso(command.at),
    };
    return [{ type: names.created, data } as Event];
  };
  const update = (command: { organization: string; input: I; at: number }, state: State): Event[] => {
    const current = live(state, command.organization);
    const settings = settingsOf(current);
    const wanted = rules.update(command.input, settings, command.at);
    const changes: Partial<S> = {};
    for (const key of Object.keys(wanted) as (keyof S)[]) {
      if (!same(wanted[key], settings[key])) changes[key] = wanted[key];
    }
    if (Object.keys(changes).length === 0) return [];
    return [
      { type: names.updated, data: { ...refOf(current), changes, updatedAt: iso(command.at) } } as Event,
    ];
  };
  const remove = (command: { organization: string; at: number }, state: State): Event[] => {
    const current = live(state, command.organization);
    return [{ type: names.deleted, data: { ...refOf(current), deletedAt: iso(command.at) } } as Event];
  };
  // The command types are the rules' names, so the compiler cannot follow the keys: the type is stated.
  const decisions = {
    [names.create]: create,
    [names.update]: update,
    [names.delete]: remove,
  } as unknown as Decisions<Command, Event, State>;

  return {
    initialState: { status: 'none' },

    decide: decideBy(decisions),

    evolve(state, event) {
      if (event.type === names.created) {
        const { createdAt: _c, ...facts } = event.data as Record<string, unknown>;
        return { status: 'active', ...facts } as ResourceState<K, S>;
      }
      if (state.status !== 'active') return state;
      if (event.type === names.updated) {
        const { changes } = event.data as { changes: Partial<S> };
        return { ...state, ...changes };
      }
      if (event.type === names.deleted) return { status: 'deleted', ...refOf(state) } as ResourceState<K, S>;
      return state;
    },
  };
}
