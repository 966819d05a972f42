import { applyDecorators, SetMetadata } from '@nestjs/common';

export const OWN_SHAPE = 'openapi:own-shape';
export const OWN_SCHEMA = 'openapi:own-schema';

/**
 * Marks a handler whose answer is not GitBook's response for the same method and path: a route GitBook's
 * document lacks, or one whose answer the specification shapes differently (the seeds win). The API
 * document keeps GitBook's operationId where it has one, leaves GitBook's response schema out, and says
 * `shape` instead. `schema` names the component schema a 2xx body is (GitBook's, or a shape of the seeds
 * the tests know), which the tests check every answer of the route against; without it, `shape` says
 * what the answer is instead, and why no schema applies.
 */
export const OwnShape = (shape: string, schema?: string) =>
  applyDecorators(SetMetadata(OWN_SHAPE, shape), ...(schema ? [SetMetadata(OWN_SCHEMA, schema)] : []));
