import { isEmoji } from '../domain/emoji';

type Json = Record<string, unknown>;

export function isObject(node: unknown): node is Json {
  return typeof node === 'object' && node !== null && !Array.isArray(node);
}

/** Whether an instance the schema accepts may be an object (so its properties are worth checking). */
function mayBeObject(node: Json): boolean {
  if (node.enum !== undefined || node.const !== undefined) return false;
  if (node.type === undefined) return true;
  return (Array.isArray(node.type) ? node.type : [node.type]).includes('object');
}

export const mapValues = (record: unknown, f: (v: unknown) => unknown) =>
  Object.fromEntries(Object.entries(record as Json).map(([k, v]) => [k, f(v)]));

/**
 * The strict copy of a JSON Schema (2020-12) of GitBook's document: a value may hold no property its
 * schema does not list. GitBook's schemas rarely say `additionalProperties: false`, and this project
 * neither answers nor accepts fields it does not mean.
 *
 * Every schema in a value position (a property's value, an array's items, a map's values; the whole
 * schema when `asValue`) gets `unevaluatedProperties: false`; the members of `allOf`/`anyOf`/`oneOf`
 * and the component definitions `$ref` points at do not, because `unevaluatedProperties` sees what the
 * subschemas that applied (through `$ref` and the combinators) evaluated, whereas a member marked
 * strict would refuse its siblings' properties. Maps (`additionalProperties: true` or a schema) stay
 * maps: their entries are evaluated.
 */
export function strictSchema(node: unknown, asValue: boolean): unknown {
  if (!isObject(node)) return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    switch (key) {
      case 'properties':
      case 'patternProperties':
        out[key] = mapValues(value, (s) => strictSchema(s, true));
        break;
      case 'additionalProperties':
      case 'items':
      case 'contains':
      case 'unevaluatedItems':
        out[key] = strictSchema(value, true);
        break;
      case 'prefixItems':
        out[key] = (value as unknown[]).map((s) => strictSchema(s, true));
        break;
      case 'allOf':
      case 'anyOf':
      case 'oneOf':
        out[key] = (value as unknown[]).map((s) => strictSchema(s, false));
        break;
      case 'if':
      case 'then':
      case 'else':
        out[key] = strictSchema(value, false);
        break;
      case 'dependentSchemas':
        out[key] = mapValues(value, (s) => strictSchema(s, false));
        break;
      default:
        // `not` stays as it is (strictness under a negation would loosen), and so do annotations.
        out[key] = value;
    }
  }
  if (asValue && mayBeObject(node) && node.unevaluatedProperties === undefined) {
    out.unevaluatedProperties = false;
  }
  return out;
}

/** Adds a string format to a JSON Schema validator (Ajv's `addFormat`, without importing Ajv here). */
type FormatTarget = {
  addFormat(name: string, format: { type: 'string'; validate: (s: string) => boolean }): unknown;
};

/** GitBook's own string formats: `emoji`, and `icon` names (`gear`, `book-open`: lowercase words and dashes). */
export function addGitBookFormats(validator: FormatTarget): void {
  validator.addFormat('emoji', { type: 'string', validate: isEmoji });
  validator.addFormat('icon', {
    type: 'string',
    validate: (name: string) => /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(name),
  });
}
