import { isEmoji } from '@app/platform/domain/emoji';

/** A JSON Schema of an OpenAPI document, read as plain JSON. */
export type Schema = { [keyword: string]: unknown };

/** Finds the schema a local `$ref` (`#/components/schemas/Name`) names. */
export type Resolve = (ref: string) => Schema;

const typeOf = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;

const FORMATS: Record<string, (value: string) => boolean> = {
  uri: (value) => /^[a-z][a-z0-9+.-]*:/i.test(value) && URL.canParse(value),
  emoji: isEmoji,
};

const resolved = (schema: Schema, resolve: Resolve): Schema =>
  schema.$ref ? resolved(resolve(schema.$ref as string), resolve) : schema;

/** Whether the value is of the schema's type (a schema without one takes any). */
function typeFits(schema: Schema, value: unknown): boolean {
  const allowed = schema.type as string | undefined;
  if (!allowed) return true;
  const type = typeOf(value);
  return (
    allowed === type ||
    (allowed === 'integer' && Number.isInteger(value)) ||
    (allowed === 'number' && type === 'number')
  );
}

/** The properties and required names of a schema and of its `allOf` members: one object's whole shape. */
function shapeOf(
  schema: Schema,
  resolve: Resolve,
): { properties: Record<string, Schema>; required: string[] } {
  const own = schema.$ref ? resolve(schema.$ref as string) : schema;
  const properties = { ...((own.properties as Record<string, Schema>) ?? {}) };
  const required = [...((own.required as string[]) ?? [])];
  for (const member of (own.allOf as Schema[]) ?? []) {
    const inner = shapeOf(member, resolve);
    Object.assign(properties, inner.properties);
    required.push(...inner.required);
  }
  return { properties, required };
}

/**
 * Checks a value against the subset of JSON Schema GitBook's document uses for request bodies, strictly:
 * an object property its schema does not declare is refused (as the DTOs refuse unknown fields), unless
 * the schema is a map (`additionalProperties` a schema). Returns the first problem, naming the value's
 * path (`styling.primaryColor.light`), or null when the value fits. `oneOf` is taken as "one of them
 * fits": the alternatives GitBook lists are told apart by their types and required properties.
 */
export function schemaProblem(schema: Schema, value: unknown, path: string, resolve: Resolve): string | null {
  if (schema.$ref) return schemaProblem(resolve(schema.$ref as string), value, path, resolve);
  if (Array.isArray(schema.oneOf) || Array.isArray(schema.anyOf)) {
    const alternatives = (schema.oneOf ?? schema.anyOf) as Schema[];
    const problems = alternatives.map((alternative) => schemaProblem(alternative, value, path, resolve));
    if (problems.some((problem) => problem === null)) return null;
    // The problem of an alternative of the value's own type says the most (a color's pattern, not "must
    // be null").
    const ofItsType = alternatives.findIndex((alternative) =>
      typeFits(resolved(alternative, resolve), value),
    );
    return problems[ofItsType] ?? `${path} is none of the forms it may take`;
  }
  const type = typeOf(value);
  const allowed = schema.type as string | undefined;
  const objectLike = allowed === 'object' || schema.properties !== undefined || schema.allOf !== undefined;
  if (allowed && !typeFits(schema, value)) {
    return `${path} must be ${allowed === 'array' || allowed === 'object' ? 'an' : 'a'} ${allowed}`;
  }
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) {
    return `${path} must be one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  }
  if (typeof value === 'string') return stringProblem(schema, value, path);
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum)
      return `${path} must be at least ${schema.minimum}`;
    if (typeof schema.maximum === 'number' && value > schema.maximum)
      return `${path} must be at most ${schema.maximum}`;
    return null;
  }
  if (Array.isArray(value)) {
    if (typeof schema.minItems === 'number' && value.length < schema.minItems)
      return `${path} must have at least ${schema.minItems} items`;
    if (typeof schema.maxItems === 'number' && value.length > schema.maxItems)
      return `${path} must have at most ${schema.maxItems} items`;
    const items = schema.items as Schema | undefined;
    if (!items) return null;
    for (const [index, item] of value.entries()) {
      const problem = schemaProblem(items, item, `${path}[${index}]`, resolve);
      if (problem) return problem;
    }
    return null;
  }
  if (type === 'object' && (objectLike || schema.additionalProperties !== undefined)) {
    return objectProblem(schema, value as Record<string, unknown>, path, resolve);
  }
  return null;
}

function stringProblem(schema: Schema, value: string, path: string): string | null {
  const length = [...value].length;
  if (typeof schema.minLength === 'number' && length < schema.minLength)
    return `${path} must be at least ${schema.minLength} characters`;
  if (typeof schema.maxLength === 'number' && length > schema.maxLength)
    return `${path} must be at most ${schema.maxLength} characters`;
  if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(value))
    return `${path} must match ${schema.pattern}`;
  const format = FORMATS[schema.format as string];
  if (format && !format(value)) return `${path} must be a valid ${schema.format}`;
  return null;
}

function objectProblem(schema: Schema, value: Record<string, unknown>, path: string, resolve: Resolve) {
  const { properties, required } = shapeOf(schema, resolve);
  const at = (key: string) => (path ? `${path}.${key}` : key);
  for (const key of required) if (value[key] === undefined) return `${at(key)} is required`;
  const extra = schema.additionalProperties;
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined) continue;
    const declared = properties[key];
    if (declared) {
      const problem = schemaProblem(declared, item, at(key), resolve);
      if (problem) return problem;
      continue;
    }
    if (extra === undefined || extra === false) return `${at(key)} is not a known property`;
    if (schema.propertyNames) {
      const problem = schemaProblem(schema.propertyNames as Schema, key, `${at(key)} (its name)`, resolve);
      if (problem) return problem;
    }
    if (typeof extra === 'object') {
      const problem = schemaProblem(extra as Schema, item, at(key), resolve);
      if (problem) return problem;
    }
  }
  return null;
}
