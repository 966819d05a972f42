export type Schema = Record<string, unknown>;

/** The key under which a rule's constraint carries its JSON Schema. */
export const JSON_SCHEMA = 'jsonSchema';

/**
 * The constraint a custom class-validator rule (`ValidateBy`) carries to say what it accepts, as JSON
 * Schema, for the API reference: `ValidateBy({ name, constraints: [describedRule(schema)], validator })`.
 */
export const describedRule = (schema: Schema) => ({ [JSON_SCHEMA]: schema });
