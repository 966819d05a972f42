import spec from '@gitbook/api/spec/openapi.json';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

type Json = Record<string, unknown>;

const SPEC_ID = 'gitbook-openapi.json';
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
addFormats(ajv);
ajv.addFormat('emoji', true);
ajv.addSchema({ $id: SPEC_ID, components: (spec as Json).components } as Json);

/** Points the spec's internal references at the registered copy of its components. */
function rebase(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rebase);
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node).map(([k, v]) => [
      k,
      k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `${SPEC_ID}${v}` : rebase(v),
    ]),
  );
}

function operation(operationId: string): Json {
  for (const item of Object.values((spec as Json).paths as Record<string, Json>)) {
    for (const op of Object.values(item)) {
      if ((op as Json)?.operationId === operationId) return op as Json;
    }
  }
  throw new Error(`no operation ${operationId} in the OpenAPI document`);
}

const cache = new Map<string, ReturnType<typeof ajv.compile>>();

function validator(key: string, schema: () => unknown) {
  let validate = cache.get(key);
  if (!validate) {
    validate = ajv.compile(rebase(schema()) as Json);
    cache.set(key, validate);
  }
  return validate;
}

/** Throws with the schema errors when `body` is not what the operation's `status` response promises. */
export function expectResponseMatches(operationId: string, status: number, body: unknown): void {
  const validate = validator(`${operationId}:${status}`, () => {
    const responses = operation(operationId).responses as Record<string, Json>;
    const response = responses[String(status)];
    if (!response) throw new Error(`${operationId} has no ${status} response`);
    return ((response.content as Json)['application/json'] as Json).schema;
  });
  if (!validate(body)) {
    throw new Error(
      `${operationId} ${status} body does not match the schema: ${ajv.errorsText(validate.errors)}`,
    );
  }
}

/** The same check against a named component schema (for operations the document lacks). */
export function expectSchemaMatches(component: string, body: unknown): void {
  const validate = validator(`component:${component}`, () => ({ $ref: `#/components/schemas/${component}` }));
  if (!validate(body)) throw new Error(`body is not a ${component}: ${ajv.errorsText(validate.errors)}`);
}
