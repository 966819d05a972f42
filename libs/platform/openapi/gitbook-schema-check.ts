import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { addGitBookFormats, mapValues, strictSchema } from './strict-schema';

const COMPONENTS_ID = 'gitbook-components.json';

let ajv: Ajv2020 | undefined;
const compiled = new Map<string, ValidateFunction>();

/**
 * Ajv over the strict copy of GitBook's component schemas (`strictSchema`), made the first time a
 * value is checked: the document (`@gitbook/api`'s spec/openapi.json) is 1.7 MB.
 */
function validator(pointer: string): ValidateFunction {
  let validate = compiled.get(pointer);
  if (validate) return validate;
  if (!ajv) {
    const spec = require('@gitbook/api/spec/openapi.json') as { components: { schemas: object } };
    ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
    addFormats(ajv);
    addGitBookFormats(ajv);
    const schemas = mapValues(spec.components.schemas, (s) => strictSchema(s, false));
    ajv.addSchema({ $id: COMPONENTS_ID, components: { schemas } });
  }
  validate = ajv.compile({ $ref: `${COMPONENTS_ID}${pointer}` });
  compiled.set(pointer, validate);
  return validate;
}

/**
 * The problem of `value` by the schema at `pointer` in GitBook's document (`#/components/schemas/…`,
 * a value position: strict), naming where it is from `path` (`styling.primaryColor.light must match …`);
 * null when it fits.
 */
export function gitbookSchemaProblem(pointer: string, value: unknown, path: string): string | null {
  const validate = validator(pointer);
  if (validate(value)) return null;
  return describe(mostTelling(validate.errors ?? []), path);
}

/**
 * The error that says the most: the deepest; at one depth, not a combinator's summary, nor a type
 * error, which comes from an alternative of another type than the value's (of a color that is
 * neither a string nor an object, the pattern the string missed says more than "must be object").
 */
function mostTelling(errors: ErrorObject[]): ErrorObject | undefined {
  const rank = (e: ErrorObject) =>
    ['oneOf', 'anyOf', 'if', 'not'].includes(e.keyword) ? 2 : e.keyword === 'type' ? 1 : 0;
  // Errors about a property of the object at `instancePath` (missing, unknown, a bad key) are one deeper.
  const aboutProperty = ['required', 'unevaluatedProperties', 'additionalProperties', 'propertyNames'];
  const depth = (e: ErrorObject) =>
    e.instancePath.split('/').length + (aboutProperty.includes(e.keyword) || e.propertyName ? 1 : 0);
  return [...errors].sort((a, b) => depth(b) - depth(a) || rank(a) - rank(b))[0];
}

/** `/links/0/to` under `header` is `header.links[0].to`. */
function pathOf(base: string, instancePath: string): string {
  return instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((at, part) => (/^\d+$/.test(part) ? `${at}[${part}]` : at ? `${at}.${part}` : part), base);
}

function describe(error: ErrorObject | undefined, base: string): string {
  if (!error) return `${base} is not valid`;
  // An error of `propertyNames` is about a key of the object at `instancePath`, not its value.
  const at = error.propertyName
    ? `${pathOf(base, error.instancePath)}.${error.propertyName} (its name)`
    : pathOf(base, error.instancePath);
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `${at}.${p.missingProperty} is required`;
    case 'unevaluatedProperties':
      return `${at}.${p.unevaluatedProperty} is not a known property`;
    case 'additionalProperties':
      return `${at}.${p.additionalProperty} is not a known property`;
    case 'type': {
      const type = String(p.type);
      return `${at} must be ${type === 'array' || type === 'object' || type === 'integer' ? 'an' : 'a'} ${type}`;
    }
    case 'enum':
      return `${at} must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'const':
      return `${at} must be ${JSON.stringify(p.allowedValue)}`;
    case 'pattern':
      return `${at} must match ${p.pattern}`;
    case 'format':
      return `${at} must be a valid ${p.format}`;
    case 'minLength':
      return `${at} must be at least ${p.limit} characters`;
    case 'maxLength':
      return `${at} must be at most ${p.limit} characters`;
    case 'minItems':
      return `${at} must have at least ${p.limit} items`;
    case 'maxItems':
      return `${at} must have at most ${p.limit} items`;
    case 'minimum':
      return `${at} must be at least ${p.limit}`;
    case 'maximum':
      return `${at} must be at most ${p.limit}`;
    default:
      return `${at} ${error.message ?? 'is not valid'}`;
  }
}
