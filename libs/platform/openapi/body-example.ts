import { JSONSchema } from 'class-validator-jsonschema/build/decorators';

const BODY_EXAMPLE = 'openapi:body-example';

/**
 * A whole request body the class accepts, for a body whose required fields alone say too little (a move
 * needs a parent or a position; an entry is an email): the API document shows it (`examples` of the
 * body's schema) and the route suites send it where they need a valid body.
 */
export const BodyExample =
  (example: Record<string, unknown>): ClassDecorator =>
  (target) => {
    Reflect.defineMetadata(BODY_EXAMPLE, example, target);
    JSONSchema({ examples: [example] })(target);
  };

/** The example the class itself declares with `@BodyExample`, if any (not one of a class it extends). */
export function bodyExampleOf(type: object): Record<string, unknown> | undefined {
  return Reflect.getOwnMetadata(BODY_EXAMPLE, type);
}
