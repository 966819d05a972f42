import { BadRequestException } from '@nestjs/common';
import type { Viewer } from '../auth/access';
import { ID_PATTERN } from '../domain/ids';

/**
 * The allowlist of the internal transport: a service method is callable over RPC only when it is marked
 * `@Remote(...)` with the shape of each of its arguments. The gateway's stand-ins offer exactly these
 * methods and the command and query services execute nothing else. A feature's services marking methods
 * so are exposed by the role their module lists them for (`commands`, `queries`: see `featureModule`).
 */

/** One argument of a remote method: its name (for messages) and what it accepts. */
export interface RemoteArg<T> {
  readonly name: string;
  /** Absent (or null: JSON turns a trailing `undefined` into null) is accepted, and passed on as undefined. */
  readonly optional: boolean;
  /** Why `value` is not acceptable, or undefined when it is. */
  problem(value: unknown): string | undefined;
  /** Carries the argument's type; never set. */
  readonly type?: T;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function argument<T>(name: string, problem: (value: unknown) => string | undefined): RemoteArg<T> {
  return { name, optional: false, problem };
}

const VIEWER_FIELDS = ['userId', 'tokenId', 'correlationId'] as const;
/** A viewer's fields besides those: the organization a sign-in's token is limited to. */
const OPTIONAL_VIEWER_FIELDS = ['organization'] as const;

function isViewer(v: unknown): boolean {
  if (!isPlainObject(v)) return false;
  const known = (field: string) =>
    (VIEWER_FIELDS as readonly string[]).includes(field) ||
    (OPTIONAL_VIEWER_FIELDS as readonly string[]).includes(field);
  return (
    Object.keys(v).every(known) &&
    VIEWER_FIELDS.every((field) => typeof v[field] === 'string' && (v[field] as string).length > 0) &&
    OPTIONAL_VIEWER_FIELDS.every(
      (field) =>
        v[field] === undefined || (typeof v[field] === 'string' && ID_PATTERN.test(v[field] as string)),
    )
  );
}

/** Shapes of remote arguments. Bodies and queries were validated by their DTOs at the gateway. */
export const arg = {
  /** An id as path parameters carry them (`ID_PATTERN`). */
  id: (name: string) =>
    argument<string>(name, (v) =>
      typeof v === 'string' && ID_PATTERN.test(v)
        ? undefined
        : 'must be an id of 1 to 64 letters, digits, "-" or "_"',
    ),
  /** A string matching `pattern`, described as `what` in the message. */
  text: (name: string, pattern: RegExp, what: string) =>
    argument<string>(name, (v) => (typeof v === 'string' && pattern.test(v) ? undefined : `must be ${what}`)),
  /** One of `values`. */
  oneOf: <V extends string>(name: string, values: readonly V[]) =>
    argument<V>(name, (v) =>
      typeof v === 'string' && (values as readonly string[]).includes(v)
        ? undefined
        : `must be one of ${values.join(', ')}`,
    ),
  /** An integer from `min`. */
  int: (name: string, min = 0) =>
    argument<number>(name, (v) =>
      Number.isSafeInteger(v) && (v as number) >= min ? undefined : `must be an integer from ${min}`,
    ),
  /** A JSON object (not null, not an array): a body or query its DTO validated at the gateway as `T`. */
  object: <T extends object>(name: string) =>
    argument<T>(name, (v) => (isPlainObject(v) ? undefined : 'must be an object')),
  /** An object that `check` accepts, described as `what` in the message. */
  shaped: <T>(name: string, check: (value: unknown) => value is T, what: string) =>
    argument<T>(name, (v) => (check(v) ? undefined : `must be ${what}`)),
  /** The authenticated caller (`Viewer`): its string fields, and nothing else. */
  viewer: () =>
    argument<Viewer>('viewer', (v) =>
      isViewer(v)
        ? undefined
        : `must be an object of ${VIEWER_FIELDS.join(', ')} (non-empty strings) and optionally organization (an id)`,
    ),
  optional: <T>(inner: RemoteArg<T>): RemoteArg<T | undefined> => ({ ...inner, optional: true }),
};

type Specs<A extends unknown[]> = { [K in keyof A]: RemoteArg<A[K]> };

const ALLOWLIST = new WeakMap<object, Map<string, readonly RemoteArg<unknown>[]>>();

/**
 * Marks a method callable over the internal transport, with the shape of each of its arguments in order
 * (the compiler checks them against the method's parameters).
 */
export function Remote<A extends unknown[]>(...args: Specs<A>) {
  return <M extends (...params: A) => unknown>(
    prototype: object,
    method: string,
    // A shape for a parameter the method does not have is an error too.
    _descriptor: TypedPropertyDescriptor<M> & (A['length'] extends Parameters<M>['length'] ? unknown : never),
  ): void => {
    const methods = ALLOWLIST.get(prototype.constructor) ?? new Map();
    methods.set(method, args as readonly RemoteArg<unknown>[]);
    ALLOWLIST.set(prototype.constructor, methods);
  };
}

/** The methods of `cls` marked `@Remote`, with their arguments' shapes; empty when none is. */
export function remoteMethods(cls: object): ReadonlyMap<string, readonly RemoteArg<unknown>[]> {
  return ALLOWLIST.get(cls) ?? new Map();
}

/** As `remoteMethods`, for a class exposed or stood in for: it must mark at least one. */
export function allowlistOf(cls: { name: string }): ReadonlyMap<string, readonly RemoteArg<unknown>[]> {
  const methods = remoteMethods(cls);
  if (methods.size === 0) {
    throw new Error(`${cls.name} is listed as a remote service but marks no method @Remote(...)`);
  }
  return methods;
}

/**
 * The arguments of a call to `label` (`Service.method`) once they match `specs`, optional ones that are
 * null or absent as undefined; otherwise a 400 naming the argument.
 */
export function checkArgs(label: string, specs: readonly RemoteArg<unknown>[], args: unknown): unknown[] {
  if (!Array.isArray(args)) throw new BadRequestException(`${label}: args must be an array`);
  if (args.length > specs.length) {
    const names = specs.map((s) => s.name).join(', ');
    throw new BadRequestException(
      `${label}: takes at most ${specs.length} arguments (${names}), got ${args.length}`,
    );
  }
  return specs.map((spec, index) => {
    const value = args[index];
    if (value === undefined || value === null) {
      if (spec.optional) return undefined;
      throw new BadRequestException(`${label}: argument ${spec.name} is missing`);
    }
    const problem = spec.problem(value);
    if (problem) throw new BadRequestException(`${label}: argument ${spec.name} ${problem}`);
    return value;
  });
}
