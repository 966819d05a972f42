import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { ValidationTypes } from 'class-validator';
import { validationMetadatasToSchemas } from 'class-validator-jsonschema';
import type { SchemaConverter } from 'class-validator-jsonschema/build/defaultConverters';
import { defaultConverters } from 'class-validator-jsonschema/build/defaultConverters';
import { CONTROL_FREE, CONTROL_FREE_LINES } from '../http/fields';
import { JSON_SCHEMA, type Schema } from './described-rule';

export type { Schema };

export const SCHEMA_REF = '#/components/schemas/';

/** Set on a property whose conditions skip validation for null, so null is accepted as is. */
const ACCEPTS_NULL = 'x-accepts-null';

/**
 * JSON Schemas of every class with class-validator rules, keyed by class name; nested classes are `$ref`s into
 * the document's components. Properties that accept null carry a marker that the callers below resolve.
 */
export function validationSchemas(): Record<string, Schema> {
  return validationMetadatasToSchemas({
    refPointerPrefix: SCHEMA_REF,
    // `@Type(() => Item)` on a nested list names its items' class; without it they would be "Array".
    classTransformerMetadataStorage: defaultMetadataStorage,
    additionalConverters: {
      // `@IsOptional()` and `@ValidateIf()` skip every rule when their condition is false; asking the condition
      // about a null value (alone on its object) tells whether null gets through unvalidated.
      [ValidationTypes.CONDITIONAL_VALIDATION]: (meta) => {
        const condition = meta.constraints?.[0];
        const skipsNull = typeof condition === 'function' && !condition({ [meta.propertyName]: null }, null);
        return skipsNull ? { [ACCEPTS_NULL]: true } : {};
      },
      // The project's own rules (`fields.ts`) as what they enforce; other custom rules as the library describes them.
      [ValidationTypes.CUSTOM_VALIDATION]: (meta, options) => {
        if (meta.name === 'noControlCharacters')
          return { pattern: meta.constraints?.[0] ? CONTROL_FREE_LINES : CONTROL_FREE };
        // GitBook's own format name for the same values.
        if (meta.name === 'isEmoji') return { format: 'emoji' };
        // A rule that describes what it accepts (`describedRule` below).
        const described = (meta.constraints ?? []).find(
          (c) => typeof c === 'object' && c !== null && JSON_SCHEMA in c,
        );
        if (described) return (described as { [JSON_SCHEMA]: Schema })[JSON_SCHEMA];
        return (defaultConverters[ValidationTypes.CUSTOM_VALIDATION] as SchemaConverter)(meta, options);
      },
    },
  }) as Record<string, Schema>;
}

/** The schema of a request body class: null where accepted, and no unknown fields (the validation pipe rejects them). */
export function bodySchema(schema: Schema): Schema {
  const properties = Object.fromEntries(
    Object.entries(propertiesOf(schema)).map(([name, property]) =>
      property[ACCEPTS_NULL] ? [name, orNull(withoutMarker(property))] : [name, property],
    ),
  );
  return { ...schema, properties, additionalProperties: false };
}

/** Query parameters from a query class: a query string has no null, so the marker is dropped. */
export function queryParameters(schema: Schema) {
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.entries(propertiesOf(schema)).map(([name, property]) => ({
    name,
    in: 'query' as const,
    required: required.has(name),
    schema: withoutMarker(property),
  }));
}

function propertiesOf(schema: Schema): Record<string, Schema> {
  return (schema.properties as Record<string, Schema> | undefined) ?? {};
}

function withoutMarker(property: Schema): Schema {
  const { [ACCEPTS_NULL]: _marker, ...rest } = property;
  return rest;
}

function orNull(property: Schema): Schema {
  if (typeof property.type !== 'string' || '$ref' in property) return { anyOf: [property, { type: 'null' }] };
  const nullable: Schema = { ...property, type: [property.type, 'null'] };
  if (Array.isArray(property.enum)) nullable.enum = [...property.enum, null];
  return nullable;
}
