import { isEmailDomain } from '@app/organizations/domain/organization.decider';
import { isRFC3339 } from 'class-validator';
import fc from 'fast-check';
import { type DtoModel, type FieldModel, fieldPaths, objectPaths } from './dto-model';

/**
 * Bad requests generated from a route's DTO metadata. Each case says what the answer must be: its status, and
 * the field or parameter its message must name (`names`), or a pattern when the layer that rejects it (the
 * router, the JSON parser) cannot know the field.
 */
export interface Expectation {
  status: number;
  names?: string;
  message?: RegExp;
}

export interface BodyCase extends Expectation {
  /** Raw request text, sent as application/json. */
  raw: string;
}

export interface QueryCase extends Expectation {
  /** Key/value pairs, in order; a key may repeat. */
  pairs: [string, string][];
}

export interface PathCase extends Expectation {
  /** The segment as it goes on the wire (percent-encoded, or deliberately malformed). */
  segment: string;
}

/** Expected for bodies the JSON parser refuses: its messages say JSON (or application/json) but no field. */
export const JSON_REJECTED = /JSON|json/;

const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'];
const ABSENT = Symbol('absent');
type Value = unknown | typeof ABSENT;
type Obj = Record<string, unknown>;

/** Single UTF-16 units that class-validator's length counts as one character each. */
const TEXT = fc.constantFrom(
  ...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -_.,:;!?()[]{}\'"/\\@#%&*+=<>|~`$^éøß漢字Ωж'.split(
    '',
  ),
);
const CONTROL = fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c));

/** The control characters a field refuses: a text field of `@Text` allows tab (and line breaks with `lines`). */
function refusedControl(field: FieldModel): fc.Arbitrary<string> {
  if (!field.controlFree) return CONTROL;
  const allowed = field.controlFree === 'lines' ? ['\t', '\n', '\r'] : ['\t'];
  return CONTROL.filter((c) => !allowed.includes(c));
}
const ID_CHARS = /^[A-Za-z0-9_-]*$/;
const ID_ALPHABET = fc.constantFrom(
  ...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-'.split(''),
);
/** Characters that are not allowed in ids and that URLs, routers and parsers treat specially. */
const AWKWARD = fc.constantFrom(
  '/',
  '?',
  '#',
  '%',
  ' ',
  '.',
  '\u0000',
  '\n',
  '\t',
  '$',
  '+',
  '&',
  '=',
  ':',
  ';',
  '\\',
  '"',
  "'",
  '<',
  '>',
  '😀',
  'é',
  '\u202e',
  '\ufeff',
);

/** Sets an own enumerable property, so that `__proto__` is a key like any other when serialized. */
function put(target: Obj, key: string, value: unknown): Obj {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  return target;
}

function copy(object: Obj): Obj {
  const out: Obj = {};
  for (const key of Object.keys(object)) put(out, key, object[key]);
  return out;
}

/** Keys every object inherits, and `prototype`: the validation refuses them wherever they are. */
const RESERVED_KEYS = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype']);

function hasReservedKey(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  return Object.keys(value).some((k) => RESERVED_KEYS.has(k) || hasReservedKey((value as Obj)[k]));
}

/** Any JSON value, without reserved keys inside (those are a category of their own). */
const anyJson = fc.jsonValue({ maxDepth: 2 }).filter((v) => !hasReservedKey(v));

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// ---------------------------------------------------------------------------------------------------------
// Valid values, to build the rest of a body around the one bad part

/**
 * The pattern without its flags, for generating: fast-check generates from case-sensitive patterns only,
 * and what matches one matches it with `i` too.
 */
const caseSensitive = (pattern: RegExp) => (pattern.flags ? new RegExp(pattern.source) : pattern);

export function validValue(field: FieldModel): fc.Arbitrary<unknown> {
  if (field.nested) return minimalObject(field.nested);
  if (field.schemaChecked) return fc.constant(field.schemaChecked.example);
  if (field.array) {
    const item: fc.Arbitrary<unknown> = field.array.items
      ? minimalObject(field.array.items)
      : field.array.itemValues
        ? fc.constantFrom(...field.array.itemValues)
        : fc.constant('x');
    return fc.array(item, {
      minLength: Math.max(1, field.array.min),
      maxLength: Math.max(1, field.array.min),
    });
  }
  const allowed = field.values?.filter((v) => v !== null && v !== undefined);
  if (allowed && allowed.length > 0) return fc.constantFrom(...allowed);
  if (field.isBoolean) return fc.boolean();
  if (field.isInt) return fc.integer({ min: field.min ?? -1000, max: field.max ?? 1000 });
  if (field.isRFC3339) {
    return fc
      .date({
        min: new Date('2000-01-01T00:00:00Z'),
        max: new Date('2100-01-01T00:00:00Z'),
        noInvalidDate: true,
      })
      .map((d) => d.toISOString());
  }
  const max = field.maxLength ?? 64;
  const min = field.minLength ?? 0;
  if (field.emoji) return fc.constantFrom('📘', '👨‍👩‍👧', '1f4d8', '');
  if (field.pattern)
    return fc.stringMatching(caseSensitive(field.pattern)).filter((s) => s.length <= max && s.length >= min);
  if (field.isString)
    return fc.string({ unit: TEXT, minLength: min, maxLength: Math.max(min, Math.min(max, 20)) });
  if (field.isObject) return fc.constant({});
  return fc.constant('x');
}

/** The required fields, then the ones that the values chosen make required. */
export function minimalObject(model: DtoModel): fc.Arbitrary<Obj> {
  const required = model.fields.filter((f) => f.required);
  return fc.record(Object.fromEntries(required.map((f) => [f.name, validValue(f)]))).chain((base) => {
    const more = model.fields.filter(
      (f) => !(f.name in base) && f.conditions.length > 0 && f.conditions.every((c) => c(base, undefined)),
    );
    if (more.length === 0) return fc.constant(base as Obj);
    return fc
      .record(Object.fromEntries(more.map((f) => [f.name, validValue(f)])))
      .map((extra) => ({ ...base, ...extra }) as Obj);
  });
}

/** A minimal valid body whose object at `chain` (the fields leading to it; [] for the body) is edited. */
function editAt(
  model: DtoModel,
  chain: FieldModel[],
  edit: (object: Obj, model: DtoModel) => fc.Arbitrary<Obj>,
): fc.Arbitrary<Obj> {
  if (chain.length === 0) return minimalObject(model).chain((object) => edit(object, model));
  const [head, ...rest] = chain;
  const nested = head.nested as DtoModel;
  return fc
    .tuple(minimalObject(model), editAt(nested, rest, edit))
    .map(([object, child]) => put(copy(object), head.name, child));
}

/** A minimal valid body with the field at the end of `chain` set to a value (or removed), kept only when validated. */
function withField(model: DtoModel, chain: FieldModel[], value: fc.Arbitrary<Value>): fc.Arbitrary<Obj> {
  const field = chain[chain.length - 1];
  return editAt(model, chain.slice(0, -1), (object) =>
    value
      .map((v) => {
        const out = copy(object);
        delete out[field.name];
        if (v !== ABSENT) put(out, field.name, v);
        return out;
      })
      // A value that a condition exempts from validation is not bad input (`space` unless `type` is `space`).
      .filter((out) => field.conditions.every((c) => c(out, out[field.name]))),
  );
}

function bodyCase(body: fc.Arbitrary<Obj>, names: string, status = 400): fc.Arbitrary<BodyCase> {
  return body.map((b) => ({ raw: JSON.stringify(b), status, names }));
}

function oneOf<T>(arbitraries: fc.Arbitrary<T>[]): fc.Arbitrary<T> | undefined {
  return arbitraries.length === 0 ? undefined : fc.oneof(...arbitraries);
}

// ---------------------------------------------------------------------------------------------------------
// Bad values for one field

function wrongTypes(field: FieldModel): fc.Arbitrary<unknown> | undefined {
  const array = fc.array(anyJson, { maxLength: 3 });
  // fast-check favours keys like `valueOf`; those make a reserved-key case, which is a category of its own.
  const object = fc
    .dictionary(fc.string({ unit: TEXT, minLength: 1, maxLength: 8 }), anyJson, { minKeys: 1, maxKeys: 3 })
    .filter((o) => !hasReservedKey(o));
  const text = fc.string({ unit: TEXT, maxLength: 10 });
  let candidates: fc.Arbitrary<unknown>[];
  // A field not served refuses every value: any JSON stands for the wrong one.
  if (field.notServed) return anyJson;
  if (field.schemaChecked) {
    // Another JSON type than the example's is wrong whatever the schema says in detail.
    const { example } = field.schemaChecked;
    if (example === undefined) return undefined;
    const kinds = { text, number: fc.integer(), boolean: fc.boolean(), array, object };
    const own = Array.isArray(example) ? 'array' : typeof example === 'string' ? 'text' : typeof example;
    return fc.oneof(
      ...Object.entries(kinds).flatMap(([kind, arbitrary]) => (kind === own ? [] : [arbitrary])),
    );
  }
  if (field.array) {
    const { min, max } = field.array;
    candidates = [text, fc.integer(), fc.boolean(), object];
    // Too few or too many items is the wrong shape of list, named by the field as a wrong type is.
    if (min > 0) candidates.push(fc.constant([]));
    if (max !== undefined) candidates.push(fc.constant(Array.from({ length: max + 1 }, () => ({}))));
  } else if (field.isObject) candidates = [text, fc.integer(), fc.boolean(), array];
  else if (field.isBoolean) candidates = [text, fc.integer(), array, object];
  else if (field.isInt)
    candidates = [
      text,
      fc.boolean(),
      fc.double({ noInteger: true, noNaN: true, noDefaultInfinity: true }),
      array,
      object,
    ];
  else if (field.isString || field.isRFC3339 || field.values || field.pattern) {
    candidates = [
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.boolean(),
      array,
      object,
    ];
  } else return undefined;
  const allowed = field.values ?? [];
  return fc.oneof(...candidates).filter((v) => !allowed.includes(v));
}

/** Strings longer than the field's maximum, or shorter than its minimum. */
function overLength(field: FieldModel): fc.Arbitrary<string> | undefined {
  const over =
    field.maxLength === undefined
      ? undefined
      : fc.string({ unit: TEXT, minLength: field.maxLength + 1, maxLength: field.maxLength + 60 });
  const under = field.minLength ? fc.string({ unit: TEXT, maxLength: field.minLength - 1 }) : undefined;
  return oneOf([over, under].filter(isDefined));
}

function notAllowed(field: FieldModel): fc.Arbitrary<string> | undefined {
  if (!field.values) return undefined;
  const allowed = field.values;
  return fc
    .oneof(
      fc.string({ unit: TEXT, maxLength: 12 }),
      // Near misses: another case, padding, a control character.
      fc
        .constantFrom(...allowed.filter((v): v is string => typeof v === 'string'))
        .chain((v) => fc.constantFrom(v.toUpperCase(), ` ${v}`, `${v} `, `${v}\u0000`, `${v}s`)),
    )
    .filter((s) => !allowed.includes(s));
}

function mismatching(field: FieldModel): fc.Arbitrary<string> | undefined {
  if (field.emoji) return fc.constantFrom('book', ':book:', '📘📘', '📘 ', '1', 'x1f4d8', 'Ω');
  const pattern = field.pattern;
  if (!pattern) return undefined;
  return fc
    .oneof(
      fc.string({ unit: 'binary', maxLength: 30 }),
      fc
        .tuple(fc.stringMatching(/^[A-Za-z0-9]{0,10}$/), AWKWARD, fc.stringMatching(/^[A-Za-z0-9]{0,10}$/))
        .map((parts) => parts.join('')),
    )
    .filter((s) => !pattern.test(s));
}

function badDate(field: FieldModel): fc.Arbitrary<string> | undefined {
  if (!field.isRFC3339) return undefined;
  return fc
    .oneof(
      fc.string({ unit: TEXT, maxLength: 30 }),
      fc.date({ noInvalidDate: true }).map((d) => d.toString()),
      fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
      fc.constantFrom('yesterday', '2024-13-01T00:00:00Z', '2024-01-01 00:00:00', '1700000000'),
    )
    .filter((s) => !isRFC3339(s));
}

/** Strings the field's own rules reject: over-long, outside the enumeration, not matching, not a date. */
function badStrings(field: FieldModel): fc.Arbitrary<string> | undefined {
  return oneOf([overLength(field), notAllowed(field), mismatching(field), badDate(field)].filter(isDefined));
}

function isDefined<T>(value: T | undefined): value is T {
  return value !== undefined;
}

// ---------------------------------------------------------------------------------------------------------
// Body categories: each is an arbitrary over every field (or object) of the DTO it applies to

export type BodyCategory =
  | 'wrong type'
  | 'over-long string'
  | 'not in enumeration'
  | 'pattern mismatch'
  | 'missing required field'
  | 'unknown field'
  | 'null not allowed'
  | 'prototype keys'
  | 'control characters'
  | 'deeply nested JSON'
  | 'non-object JSON';

export function bodyCases(model: DtoModel, category: BodyCategory): fc.Arbitrary<BodyCase> | undefined {
  const fields = fieldPaths(model);
  const perField = (bad: (field: FieldModel) => fc.Arbitrary<Value> | undefined) =>
    oneOf(
      fields.flatMap(({ path, chain, field }) => {
        const value = bad(field);
        return value ? [bodyCase(withField(model, chain, value), path.join('.'))] : [];
      }),
    );
  switch (category) {
    case 'wrong type':
      return perField(wrongTypes);
    case 'over-long string':
      return perField(overLength);
    case 'not in enumeration':
      return perField(notAllowed);
    case 'pattern mismatch':
      return perField(mismatching);
    case 'missing required field':
      return perField((field) => (field.required ? fc.constant(ABSENT) : undefined));
    case 'null not allowed':
      return perField((field) => (field.acceptsNull ? undefined : fc.constant(null)));
    case 'unknown field':
      return oneOf(
        objectPaths(model).map(({ path, chain, model: at }) => {
          const known = new Set(at.fields.map((f) => f.name));
          const key = fc
            .oneof(
              fc.string({ unit: 'grapheme', minLength: 1, maxLength: 16 }),
              // Short names, which also occur inside the words of the validation messages.
              fc.stringMatching(/^[a-z]{1,2}$/),
              // Names every object inherits, which class-transformer would skip rather than copy.
              fc.constantFrom(...RESERVED_KEYS),
            )
            .filter((k) => /\S/.test(k) && !known.has(k) && !PROTO_KEYS.includes(k));
          const body = fc
            .tuple(key, anyJson)
            .chain(([k, v]) =>
              editAt(model, chain, (object) => fc.constant(put(copy(object), k, v))).map((b) => ({ b, k })),
            );
          return body.map(({ b, k }) => ({
            raw: JSON.stringify(b),
            status: 400,
            names: [...path, k].join('.'),
          }));
        }),
      );
    case 'prototype keys':
      return oneOf(
        objectPaths(model).map(({ path, chain }) =>
          fc
            .tuple(
              fc.constantFrom(...PROTO_KEYS),
              fc.oneof(anyJson, fc.constant({ prototype: { polluted: true } })),
            )
            .chain(([k, v]) =>
              editAt(model, chain, (object) => fc.constant(put(copy(object), k, v))).map((b) => ({
                raw: JSON.stringify(b),
                status: 400,
                // The JSON parser refuses `__proto__` and `constructor.prototype` before any field is known.
                names: [...path, k].join('.'),
                message: JSON_REJECTED,
              })),
            ),
        ),
      );
    case 'control characters': {
      const strings = fields.filter(({ field }) => field.isString || field.values || field.pattern);
      // Unescaped in a JSON string, a control character makes the text invalid JSON.
      const raw = oneOf(
        strings.map(({ chain }) =>
          fc.tuple(withField(model, chain, fc.constant('\u2063')), CONTROL).map(([b, c]) => ({
            raw: JSON.stringify(b).replace('\u2063', c),
            status: 400,
            message: JSON_REJECTED,
          })),
        ),
      );
      // Escaped, it is data: fields with an enumeration, a pattern or a text of `@Text` must refuse it.
      const escaped = oneOf(
        strings
          .filter(({ field }) => field.values || field.pattern || field.controlFree || field.emoji)
          .map(({ path, chain, field }) =>
            bodyCase(
              withField(
                model,
                chain,
                fc
                  .tuple(validValue(field), refusedControl(field), fc.nat())
                  .map(([v, c, at]) => {
                    const s = String(v);
                    const i = at % (s.length + 1);
                    return s.slice(0, i) + c + s.slice(i);
                  })
                  .filter((s) => !(field.values ?? []).includes(s) && !(field.pattern?.test(s) ?? false)),
              ),
              path.join('.'),
            ),
          ),
      );
      const inKey = fc
        .tuple(fc.string({ unit: TEXT, minLength: 1, maxLength: 6 }), CONTROL)
        .map(([k, c]) => `${k}${c}`)
        .chain((k) =>
          minimalObject(model).map((b) => ({
            raw: JSON.stringify(put(copy(b), k, 1)),
            status: 400,
            names: k,
          })),
        );
      return oneOf([raw, escaped, inKey].filter(isDefined));
    }
    case 'deeply nested JSON': {
      // Thousands of levels in a few kilobytes, under a declared field or an unknown one.
      const key = fc.oneof(
        fc.constantFrom(...model.fields.map((f) => f.name)),
        fc.string({ unit: TEXT, minLength: 1, maxLength: 8 }).filter((k) => !RESERVED_KEYS.has(k)),
      );
      return fc
        .tuple(minimalObject(model), key, fc.integer({ min: 1000, max: 10_000 }), fc.boolean())
        .map(([base, k, depth, arrays]) => {
          const deep = arrays
            ? `${'['.repeat(depth)}${']'.repeat(depth)}`
            : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
          const raw = JSON.stringify(put(copy(base), k, '\u2063')).replace('"\u2063"', deep);
          // The field, or a path below it when the validation reports the first level it does not know.
          return { raw, status: 400, names: k, message: new RegExp(`(^|[^\\w$.])${escapeRegExp(k)}\\.`) };
        });
    }
    case 'non-object JSON':
      return (
        fc
          .oneof(
            fc.array(anyJson, { maxLength: 3 }),
            fc.integer(),
            fc.double({ noNaN: true, noDefaultInfinity: true }),
            fc.string({ unit: TEXT, maxLength: 10 }),
            fc.boolean(),
          )
          // The body parameter itself is what is wrong.
          .map((v) => ({ raw: JSON.stringify(v), status: 400, names: 'body' }))
      );
  }
}

/** Text that is not JSON, made from a valid body by cutting, inserting or replacing characters. */
export function malformedJson(base: fc.Arbitrary<Obj>): fc.Arbitrary<BodyCase> {
  const breaking = fc.constantFrom(
    '{',
    '}',
    '[',
    ']',
    '"',
    ',',
    ':',
    '\\',
    "'",
    'x',
    'undefined',
    'NaN',
    '\u0000',
  );
  return fc
    .tuple(base, fc.nat(), fc.nat(), breaking, fc.constantFrom('cut', 'insert', 'replace', 'append'))
    .map(([body, a, b, piece, how]) => {
      const text = JSON.stringify(body);
      const i = a % (text.length + 1);
      switch (how) {
        case 'cut':
          return text.slice(0, Math.min(i, text.length - 1));
        case 'insert':
          return text.slice(0, i) + piece + text.slice(i);
        case 'replace':
          return text.slice(0, i) + piece + text.slice(i + 1 + (b % 3));
        default:
          return text + piece;
      }
    })
    .filter((raw) => !parses(raw))
    .map((raw) => ({ raw, status: 400, message: JSON_REJECTED }));
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** A JSON object just over the body limit and up to 64 KiB beyond it. */
export function oversized(limit: number): fc.Arbitrary<BodyCase> {
  return fc
    .integer({ min: limit + 1, max: limit + 64 * 1024 })
    .map((size) => ({ raw: JSON.stringify({ title: 'x'.repeat(size) }), status: 413 }));
}

export function validBodies(model: DtoModel): fc.Arbitrary<Obj> {
  return minimalObject(model);
}

// ---------------------------------------------------------------------------------------------------------
// Query categories. A query value is a string (an array when the key repeats).

export type QueryCategory =
  | 'integer out of range or not an integer'
  | 'garbage page token'
  | 'non-boolean flag'
  | 'bad string value'
  | 'repeated key'
  | 'unknown key'
  | 'prototype keys';

/** A page token is base64url JSON of `[value, id]`: a scalar sort value and a string id. */
export function wellFormedPage(token: string): boolean {
  try {
    const value: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    return (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[1] === 'string' &&
      (value[0] === null || ['string', 'number', 'boolean'].includes(typeof value[0]))
    );
  } catch {
    return false;
  }
}

function validInteger(field: FieldModel, text: string): boolean {
  const n = Number(text);
  return Number.isInteger(n) && n >= (field.min ?? -Infinity) && n <= (field.max ?? Infinity);
}

function badIntegers(field: FieldModel): fc.Arbitrary<string> {
  const edges = ['-1', '1001', '1.5', '0.5', '-0.5', 'ten', 'NaN', 'Infinity', '1e400', '1,5', '0x', '--1'];
  if (field.min !== undefined) edges.push(String(field.min - 1), `${field.min}.5`);
  if (field.max !== undefined) edges.push(String(field.max + 1), `${field.max}.25`, String(field.max * 1000));
  return fc
    .oneof(
      fc.constantFrom(...edges),
      fc.string({ unit: TEXT, minLength: 1, maxLength: 8 }),
      fc.integer().map(String),
      fc.double({ noInteger: true, noNaN: true }).map(String),
    )
    .filter((s) => !validInteger(field, s));
}

function queryValue(field: FieldModel): fc.Arbitrary<string> {
  // A list in a query (`@QueryList`) is one value per key.
  if (field.array?.itemValues) return fc.constantFrom(...field.array.itemValues).map(String);
  return validValue(field).map((v) => String(v));
}

/** A query list's field as one of its values, for the generators of one value. */
/** A list's item as a field of its own: one of its values, or a string of its items' pattern (ids). */
const itemOf = (field: FieldModel): FieldModel =>
  field.array?.itemValues
    ? { ...field, array: undefined, values: field.array.itemValues }
    : field.array?.itemPattern
      ? { ...field, array: undefined, pattern: field.array.itemPattern }
      : field;

export function queryCases(model: DtoModel, category: QueryCategory): fc.Arbitrary<QueryCase> | undefined {
  const cases = categoryCases(model, category);
  // Required parameters (a search's `query`) get valid values, so that the answer is about the case's.
  const required = model.fields.filter((f) => f.required);
  if (!cases || required.length === 0) return cases;
  return fc.tuple(cases, ...required.map(queryValue)).map(([c, ...values]) => ({
    ...c,
    pairs: [
      ...required
        .map((f, i): [string, string] => [f.name, values[i]])
        .filter(([name]) => !c.pairs.some(([key]) => key === name)),
      ...c.pairs,
    ],
  }));
}

function categoryCases(model: DtoModel, category: QueryCategory): fc.Arbitrary<QueryCase> | undefined {
  const fields = model.fields;
  const known = new Set(fields.map((f) => f.name));
  const single = (field: FieldModel, values: fc.Arbitrary<string>) =>
    values.map((v): QueryCase => ({ pairs: [[field.name, v]], status: 400, names: field.name }));
  switch (category) {
    case 'integer out of range or not an integer':
      return oneOf(fields.filter((f) => f.isInt).map((f) => single(f, badIntegers(f))));
    case 'garbage page token':
      return oneOf(
        fields
          // A `page` with a pattern is an id (the page of a PDF export), not a list's page token.
          .filter((f) => f.name === 'page' && !f.pattern)
          .map((f) =>
            single(
              f,
              fc
                .oneof(
                  fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }),
                  fc.base64String({ minLength: 4, maxLength: 40 }),
                  anyJson.map((v) => Buffer.from(JSON.stringify(v) ?? 'null').toString('base64url')),
                  fc.string({
                    unit: TEXT,
                    minLength: (f.maxLength ?? 512) + 1,
                    maxLength: (f.maxLength ?? 512) + 40,
                  }),
                )
                .filter((s) => !wellFormedPage(s) || s.length > (f.maxLength ?? Infinity)),
            ),
          ),
      );
    case 'non-boolean flag':
      return oneOf(
        fields
          .filter((f) => f.isBoolean)
          .map((f) =>
            single(
              f,
              fc
                .oneof(
                  fc.constantFrom('TRUE', 'False', '1', '0', 'yes', 'no', 'on', '', ' true', 'true '),
                  fc.string({ unit: TEXT, maxLength: 8 }),
                )
                .filter((s) => s !== 'true' && s !== 'false'),
            ),
          ),
      );
    case 'bad string value':
      return oneOf(
        fields
          .filter((f) => !f.isInt && !f.isBoolean && f.name !== 'page')
          .flatMap((f) => {
            const bad = badStrings(itemOf(f));
            return bad ? [single(f, bad)] : [];
          }),
      );
    case 'repeated key':
      return oneOf(
        fields.map((f) =>
          // A list takes its key repeated: refused when one of the values is bad.
          fc
            .tuple(
              queryValue(f),
              f.array?.itemValues || f.array?.itemPattern
                ? (badStrings(itemOf(f)) as fc.Arbitrary<string>)
                : queryValue(f),
            )
            .map(
              ([a, b]): QueryCase => ({
                pairs: [
                  [f.name, a],
                  [f.name, b],
                ],
                status: 400,
                names: f.name,
              }),
            ),
        ),
      );
    case 'unknown key':
      return fc
        .tuple(
          fc
            .string({ unit: 'grapheme', minLength: 1, maxLength: 16 })
            .filter((k) => /\S/.test(k) && k.trim() === k && !known.has(k) && !PROTO_KEYS.includes(k)),
          fc.string({ unit: TEXT, maxLength: 10 }),
        )
        .map(([k, v]) => ({ pairs: [[k, v]], status: 400, names: k }));
    case 'prototype keys':
      return fc
        .tuple(fc.constantFrom(...PROTO_KEYS), fc.string({ unit: TEXT, maxLength: 10 }))
        .map(([k, v]) => ({ pairs: [[k, v]], status: 400, names: k }));
  }
}

/**
 * Values each query field accepts, edge ones included (forged page tokens, bounds, odd dates): whatever the
 * answer, it is never a 5xx.
 */
export function acceptedQueries(model: DtoModel): fc.Arbitrary<[string, string][]> {
  const value = (field: FieldModel): fc.Arbitrary<string> => {
    if (field.name === 'page') {
      return fc
        .tuple(
          fc.oneof(fc.string(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null)),
          fc.string({ unit: 'binary', maxLength: 30 }),
        )
        .map((pair) => Buffer.from(JSON.stringify(pair)).toString('base64url'))
        .filter((token) => token.length <= (field.maxLength ?? Infinity));
    }
    if (field.isInt) {
      const min = field.min ?? -1000;
      const max = field.max ?? 1000;
      return fc.oneof(fc.constantFrom(min, max), fc.integer({ min, max })).map(String);
    }
    if (field.isRFC3339) {
      return fc
        .oneof(
          fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
          fc.constantFrom(
            '0000-01-01T00:00:00Z',
            '9999-12-31T23:59:59.999999999+23:59',
            '2024-02-30T25:61:61Z',
          ),
        )
        .filter((s) => isRFC3339(s));
    }
    if (field.isString && !field.values && !field.pattern) {
      return fc.string({ unit: 'binary', maxLength: Math.min(field.maxLength ?? 40, 40) });
    }
    return queryValue(field);
  };
  // A field not served (`@NotServed`) accepts no value.
  const optional = model.fields
    .filter((f) => !f.notServed)
    .map((f) => fc.option(value(f), { nil: undefined }).map((v) => [f.name, v] as const));
  return fc
    .tuple(...optional)
    .map((pairs) =>
      pairs.filter((p): p is readonly [string, string] => p[1] !== undefined).map(([k, v]) => [k, v]),
    );
}

export function encodeQuery(pairs: [string, string][]): string {
  return pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
}

// ---------------------------------------------------------------------------------------------------------
// Path parameters

/**
 * Ids no id pipe accepts: with characters outside [A-Za-z0-9_-], longer than 64, or not even valid percent-
 * encoding. Past the router's parameter length limit Fastify answers 414 before any pipe runs, and a
 * malformed encoding is refused by the router (400): neither layer knows the parameter's name.
 */
export function badPathSegments(
  name: string,
  maxParamLength: number,
  pipes: string[] = [],
): fc.Arbitrary<PathCase> {
  // A page path is text, not an id, and the rest of the URL (`/` unencoded), which the router does not limit:
  // only control characters in any of its segments, nothing, or more than 2048 characters make it bad.
  if (pipes.includes('PagePathPipe')) {
    const bad = (path: string): PathCase => ({
      segment: path.split('/').map(encodeURIComponent).join('/'),
      status: 400,
      names: name,
    });
    const word = fc.stringMatching(/^[a-z]{0,8}$/);
    const words = fc.array(fc.stringMatching(/^[a-z]{1,8}$/), { maxLength: 3 });
    const control = fc
      .tuple(
        words,
        word,
        CONTROL.filter((c) => c !== '\t'),
        word,
        words,
      )
      .map(([above, head, c, tail, below]) => [...above, `${head}${c}${tail}`, ...below].join('/'));
    const long = fc
      .tuple(fc.integer({ min: 2049, max: 2200 }), fc.integer({ min: 2, max: 200 }))
      .map(([length, every]) =>
        Array.from({ length }, (_, i) => ((i + 1) % every === 0 && i < length - 1 ? '/' : 'p')).join(''),
      );
    return fc.oneof(control, long, fc.constant('')).map(bad);
  }
  // An email domain is a domain name, not an id: anything else is bad, dots and all.
  if (pipes.includes('EmailDomainPipe')) {
    const encodable = (s: string) => {
      try {
        encodeURIComponent(s);
        return true;
      } catch {
        return false;
      }
    };
    return fc
      .oneof(
        fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }),
        fc.stringMatching(/^[a-z0-9]{1,12}$/),
        fc.constantFrom(
          '-acme.test',
          'acme..test',
          'acme.t',
          'acme_docs.test',
          'acme.test.',
          'bob@acme.test',
        ),
        fc.string({ unit: ID_ALPHABET, minLength: 254, maxLength: 300 }).map((s) => `${s}.test`),
      )
      .filter((s) => !isEmailDomain(s) && s !== '.' && s !== '..' && encodable(s))
      .map(
        (value): PathCase => ({
          segment: encodeURIComponent(value),
          ...(value.length > maxParamLength ? { status: 414, message: /./ } : { status: 400, names: name }),
        }),
      );
  }
  const expect = (value: string): PathCase => ({
    segment: encodeURIComponent(value),
    ...(value.length > maxParamLength ? { status: 414, message: /./ } : { status: 400, names: name }),
  });
  const awkward = fc
    .tuple(
      fc.stringMatching(/^[A-Za-z0-9_-]{0,20}$/),
      fc.oneof(AWKWARD, CONTROL),
      fc.stringMatching(/^[A-Za-z0-9_-]{0,20}$/),
    )
    .map((parts) => parts.join(''));
  const random = fc.string({ unit: 'binary', minLength: 1, maxLength: 40 });
  const long = fc.string({ unit: ID_ALPHABET, minLength: 65, maxLength: maxParamLength + 40 });
  const encodable = (s: string) => {
    try {
      encodeURIComponent(s);
      return true;
    } catch {
      return false;
    }
  };
  const malformed = fc
    .tuple(
      fc.stringMatching(/^[A-Za-z0-9]{0,8}$/),
      fc.constantFrom('%', '%G1', '%E0%A4', '%ZZ', '%C3', '%ED%A0%80', '%2'),
    )
    .map(([id, bad]): PathCase => ({ segment: `${id}${bad}`, status: 400, message: /./ }));
  return fc.oneof(
    fc
      .oneof(awkward, random, long)
      // `.` and `..` are path segments the URL itself resolves; they never reach the route.
      .filter((s) => !ID_CHARS.test(s) || s.length > 64)
      .filter((s) => s !== '.' && s !== '..' && encodable(s))
      .map(expect),
    malformed,
  );
}
