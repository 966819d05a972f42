import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';

/**
 * A site's adaptive schema: the JSON Schema (draft-07) of what its visitors' tokens claim, which the
 * conditions of its sections and site spaces name. Claims are booleans: signed ones under `properties`,
 * unsigned ones (set by the visitor, not trusted) under `properties.unsigned`.
 */

export const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';
export const UNSIGNED_DESCRIPTION = 'Unsigned claims of the site visitor.';

export interface BooleanClaim {
  type: 'boolean';
  description: string;
}

export interface UnsignedClaims {
  type: 'object';
  description: typeof UNSIGNED_DESCRIPTION;
  properties: Record<string, BooleanClaim>;
  additionalProperties: false;
}

/** GitBook's `SiteAdaptiveJSONSchema`, of boolean claims. */
export interface AdaptiveJsonSchema {
  $schema?: typeof DRAFT_07;
  type: 'object';
  properties: Record<string, BooleanClaim | UnsignedClaims>;
  additionalProperties: false;
}

/** What a site that never set one reads: no claim, signed or not. */
export const DEFAULT_ADAPTIVE_SCHEMA: AdaptiveJsonSchema = {
  type: 'object',
  properties: {
    unsigned: {
      type: 'object',
      description: UNSIGNED_DESCRIPTION,
      properties: {},
      additionalProperties: false,
    },
  },
  additionalProperties: false,
};

const CLAIM = {
  type: 'object',
  properties: { type: { const: 'boolean' }, description: { type: 'string' } },
  required: ['type', 'description'],
  additionalProperties: false,
};

const CLAIMS = {
  type: 'object',
  propertyNames: { type: 'string', minLength: 1 },
  additionalProperties: CLAIM,
};

/** The schema of an adaptive schema (draft-07, as the schemas it checks). */
const META = {
  type: 'object',
  properties: {
    $schema: { const: DRAFT_07 },
    type: { const: 'object' },
    properties: {
      ...CLAIMS,
      properties: {
        unsigned: {
          type: 'object',
          properties: {
            type: { const: 'object' },
            description: { const: UNSIGNED_DESCRIPTION },
            properties: CLAIMS,
            additionalProperties: { const: false },
          },
          required: ['type', 'description', 'properties', 'additionalProperties'],
          additionalProperties: false,
        },
      },
    },
    additionalProperties: { const: false },
  },
  required: ['type', 'properties', 'additionalProperties'],
  additionalProperties: false,
};

let validate: ValidateFunction | undefined;

/** The problem of a proposed adaptive schema, named from `jsonSchema` (`jsonSchema.properties.plan …`); null when it fits. */
export function adaptiveSchemaProblem(value: unknown): string | null {
  validate ??= new Ajv({ strict: true, allErrors: false }).compile(META);
  if (validate(value)) return null;
  return describe(validate.errors?.[0]);
}

/** The claim a path inside the schema is in: `/properties/plan/type` and `/properties/unsigned/properties/beta` are. */
function claimAt(parts: string[]): string[] | undefined {
  if (parts[0] !== 'properties' || parts.length < 2) return undefined;
  if (parts[1] !== 'unsigned') return parts.slice(0, 2);
  if (parts[2] === 'properties' && parts.length >= 4) return parts.slice(0, 4);
  return undefined;
}

function describe(error: ErrorObject | undefined): string {
  if (!error) return 'jsonSchema is not valid';
  const parts = error.instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  const params = error.params as Record<string, unknown>;
  // A claim misfits as a whole: say what one is.
  if (error.propertyName !== undefined)
    return `${['jsonSchema', ...parts].join('.')}: a claim's name must not be empty`;
  const claim = claimAt(parts);
  if (claim)
    return `jsonSchema.${claim.join('.')} must be a boolean claim: {"type": "boolean", "description": "…"}`;
  const at = ['jsonSchema', ...parts].join('.');
  switch (error.keyword) {
    case 'required':
      return `${at}.${params.missingProperty} is required`;
    case 'additionalProperties':
      return `${at}.${params.additionalProperty} is not a known property`;
    case 'const':
      return `${at} must be ${JSON.stringify(params.allowedValue)}`;
    default:
      return `${at} ${error.message ?? 'is not valid'}`;
  }
}

/** The claims of a schema, signed and unsigned, each with its description, in the schema's order. */
export function claimsOf(schema: AdaptiveJsonSchema) {
  const { unsigned, ...signed } = schema.properties;
  const entries = (claims: Record<string, BooleanClaim | UnsignedClaims>) =>
    Object.entries(claims).map(([name, claim]) => ({ name, description: claim.description }));
  return {
    signed: entries(signed),
    unsigned: entries((unsigned as UnsignedClaims | undefined)?.properties ?? {}),
  };
}

/** A claim as a condition names it: `visitor.claims.beta`, or `visitor.claims["early-access"]`. */
export function claimReference(name: string, unsigned: boolean): string {
  const base = unsigned ? 'visitor.claims.unsigned' : 'visitor.claims';
  return /^[A-Za-z_$][\w$]*$/.test(name) ? `${base}.${name}` : `${base}[${JSON.stringify(name)}]`;
}

/** GitBook's template conditions of a schema: one per claim, true for the visitor. */
export function templateConditions(schema: AdaptiveJsonSchema) {
  const { signed, unsigned } = claimsOf(schema);
  return [
    ...signed.map(({ name, description }) => ({
      description: `Visitors whose signed claim ${name} is true: ${description}`,
      condition: claimReference(name, false),
    })),
    ...unsigned.map(({ name, description }) => ({
      description: `Visitors whose unsigned claim ${name} is true: ${description}`,
      condition: claimReference(name, true),
    })),
  ];
}
