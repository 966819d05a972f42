import { createValidationPipe } from '@app/platform/http/validation';
import spec from '@gitbook/api/spec/openapi.json';
import type { Type } from '@nestjs/common';

/**
 * What GitBook's OpenAPI document lets a client send, turned into concrete requests: for each request-body
 * field (nested ones by their dotted path) and each query parameter of an operation, one value per thing
 * the schema allows — each enum value, null where it is nullable, each alternative of a union, true and
 * false — and whether this server's validation accepts each, as its routes run it (`createValidationPipe`
 * on the handler's DTO class).
 */

// biome-ignore lint/suspicious/noExplicitAny: GitBook's document is walked as plain JSON
type Json = Record<string, any>;

const DOC = spec as unknown as Json;

/** Follows `$ref`s to the schema they name. */
export function deref(schema: Json | undefined): Json | undefined {
  let current = schema;
  for (let hops = 0; current?.$ref && hops < 50; hops++) {
    current = (current.$ref as string)
      .slice(2)
      .split('/')
      .reduce((node: Json, key) => node?.[key], DOC);
  }
  return current;
}

/** The alternatives a schema allows, `allOf` merged: the leaves of its `oneOf`/`anyOf` tree. */
export function alternatives(schema: Json | undefined, depth = 0): Json[] {
  const s = deref(schema);
  if (!s || depth > 8) return [];
  const union = (s.oneOf ?? s.anyOf) as Json[] | undefined;
  if (union) {
    const { oneOf: _o, anyOf: _a, ...rest } = s;
    return union.flatMap((member) => {
      const one = deref(member) ?? {};
      // A member adds to what the schema around it says (its properties, its required ones).
      const merged: Json = { ...rest, ...one, $ref: undefined };
      if (rest.properties || one.properties) merged.properties = { ...rest.properties, ...one.properties };
      if (rest.required || one.required)
        merged.required = [...(rest.required ?? []), ...(one.required ?? [])];
      return alternatives(merged, depth + 1);
    });
  }
  if (s.allOf) {
    // Each combination of the parts' alternatives, merged into one object schema.
    let merged: Json[] = [{ ...s, allOf: undefined }];
    for (const part of s.allOf as Json[]) {
      merged = merged.flatMap((whole) =>
        alternatives(part, depth + 1).map((one) => ({
          ...one,
          ...whole,
          type: whole.type ?? one.type,
          properties: { ...one.properties, ...whole.properties },
          required: [...(whole.required ?? []), ...(one.required ?? [])],
        })),
      );
    }
    return merged.flatMap((one) => alternatives(one, depth + 1));
  }
  const types = Array.isArray(s.type) ? (s.type as string[]) : undefined;
  if (types) return types.map((type) => ({ ...s, type }));
  if (s.nullable === true) return [{ ...s, nullable: undefined }, { type: 'null' }];
  return [s];
}

/**
 * Values for strings whose meaning GitBook's schema does not carry (a plain string where a domain name is
 * meant), by the field's name: what a client sends there.
 */
const MEANT: Record<string, string> = {
  emailDomains: 'example.com',
  url: 'https://example.com/docs',
};

/** Values for strings of a pattern the generic sample does not match, by the pattern. */
const OF_PATTERN: Record<string, string> = {
  // GitBook's `Color`.
  '^#(?:[0-9a-fA-F]{3}){1,2}$': '#346DDB',
  // GitBook's `SiteProxyOrigin`: a host and a path.
  '^([\\w-]+\\.)*[\\w-]+\\.[a-zA-Z]{2,}(\\/[\\w-]+)+$': 'example.com/docs',
};

/** One value per thing an alternative allows; `depth` bounds the objects nested in objects. */
export function samples(schema: Json, depth = 0, name?: string): unknown[] {
  if (name && MEANT[name] !== undefined && schema.type === 'string') return [MEANT[name]];
  if (schema.const !== undefined) return [schema.const];
  if (Array.isArray(schema.enum)) return schema.enum;
  if (schema.example !== undefined && schema.type === 'string') return [schema.example];
  switch (schema.type) {
    case 'null':
      return [null];
    case 'boolean':
      return [true, false];
    case 'integer':
    case 'number':
      return [typeof schema.minimum === 'number' ? schema.minimum : 1];
    case 'string':
      return [sampleString(schema)];
    case 'array': {
      const items = alternatives(schema.items as Json);
      return items.length === 0 ? [[]] : items.map((item) => [samples(item, depth + 1, name)[0]]);
    }
    default: {
      if (schema.properties || schema.type === 'object') return [sampleObject(schema, depth)];
      return [];
    }
  }
}

/** A string of the format the schema names, long enough for its minimum. */
function sampleString(schema: Json): string {
  const formats: Record<string, string> = {
    uri: 'https://example.com/docs',
    url: 'https://example.com/docs',
    'date-time': '2026-01-01T00:00:00.000Z',
    date: '2026-01-01',
    email: 'someone@example.com',
  };
  const value = OF_PATTERN[schema.pattern as string] ?? formats[schema.format as string] ?? 'sample';
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  return value.length >= min ? value : value.padEnd(min, 'x');
}

/** An object with its required properties, each its first sample. */
export function sampleObject(schema: Json, depth = 0): Json {
  const object: Json = {};
  if (depth > 6) return object;
  for (const name of (schema.required as string[] | undefined) ?? []) {
    const [first] = alternatives(schema.properties?.[name]);
    if (first) object[name] = samples(first, depth + 1, name)[0];
  }
  return object;
}

/** One request to try: `field` set to `value` in a body otherwise made of the alternative's required fields. */
export interface Trial {
  in: 'body' | 'query';
  field: string;
  value: unknown;
  input: Json;
}

/** Sets `path` in a copy of `base`, making the objects along the way; `[]` stands for a list of one item. */
function withValue(base: unknown, path: string[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  if (head === '[]') {
    const [item] = Array.isArray(base) ? base : [];
    return [withValue(item ?? {}, rest, value)];
  }
  const object = typeof base === 'object' && base !== null && !Array.isArray(base) ? (base as Json) : {};
  return { ...object, [head]: withValue(object[head], rest, value) };
}

/**
 * The trials of a body schema: each of its alternatives, each field in it, each value. Objects are
 * entered, and so are the items of lists of objects (`mergeRules.rules[].rule`), each field varied in a
 * body otherwise valid.
 */
export function bodyTrials(schema: Json): Trial[] {
  const trials: Trial[] = [];
  const visit = (object: Json, path: string[], base: Json, depth: number) => {
    for (const [name, property] of Object.entries((object.properties ?? {}) as Record<string, Json>)) {
      const at = [...path, name];
      const field = at.join('.').replace(/\.\[\]/g, '[]');
      for (const alternative of alternatives(property)) {
        for (const value of samples(alternative, depth, name)) {
          trials.push({ in: 'body', field, value, input: withValue(base, at, value) as Json });
        }
        if (depth >= 3) continue;
        if (alternative.properties) {
          visit(
            alternative,
            at,
            withValue(base, at, sampleObject(alternative, depth + 1)) as Json,
            depth + 1,
          );
        }
        if (alternative.type === 'array') {
          for (const item of alternatives(alternative.items as Json).filter((one) => one.properties)) {
            const inList = withValue(base, at, [sampleObject(item, depth + 1)]) as Json;
            visit(item, [...at, '[]'], inList, depth + 1);
          }
        }
      }
    }
  };
  for (const body of alternatives(schema)) visit(body, [], sampleObject(body), 0);
  return trials;
}

/**
 * The trials of the query parameters, as a URL carries them: strings (a list, the key once per item);
 * a parameter's null alternative has no form in a URL and is left out.
 */
export function queryTrials(parameters: Json[]): Trial[] {
  const trials: Trial[] = [];
  for (const parameter of parameters.map((p) => deref(p) as Json).filter((p) => p.in === 'query')) {
    for (const alternative of alternatives(parameter.schema)) {
      for (const value of samples(alternative, 0, parameter.name)) {
        if (value === null || (typeof value === 'object' && !Array.isArray(value))) continue;
        const sent = Array.isArray(value) ? value.map(String) : String(value);
        trials.push({ in: 'query', field: parameter.name, value, input: { [parameter.name]: sent } });
      }
    }
  }
  return trials;
}

const WORD = /[A-Za-z0-9_]/;

/** Whether `message` names `field` (as a whole word or dotted path) or an item of it (`field[0]`). */
function names(message: string, field: string): boolean {
  for (let at = message.indexOf(field); at >= 0; at = message.indexOf(field, at + 1)) {
    const before = message[at - 1] ?? '';
    const after = message[at + field.length] ?? '';
    if (!WORD.test(before) && before !== '.' && !WORD.test(after)) return true;
  }
  return false;
}

const pipe = createValidationPipe();

/** Why the route's validation refuses the trial's field, or undefined when it accepts it. */
export async function refusal(trial: Trial, dto: Type | undefined): Promise<string | undefined> {
  if (!dto) return `the route reads no ${trial.in}`;
  try {
    await pipe.transform(trial.input, { type: trial.in, metatype: dto, data: undefined });
    return undefined;
  } catch (error) {
    const response = (error as { getResponse?: () => { message?: unknown } }).getResponse?.();
    const message = String(response?.message ?? (error as Error).message);
    // A refusal is the field's when it names the field, or for a nested one the field it is in.
    const top = trial.field.split(/[.[]/)[0];
    const own = message.split('; ').filter((part) => names(part, trial.field) || names(part, top));
    return own.length > 0 ? own.join('; ') : undefined;
  }
}
