import { Param, type PipeTransform, type Type } from '@nestjs/common';

/**
 * The router's parameter for the rest of the URL after a route path's trailing `*`, decoded (`a/b` and
 * `a%2Fb` both read `a/b`). Fastify's router names no wildcard, so the API's name for it is kept apart.
 */
export const REST_OF_PATH = '*';

const REST_NAME = 'rest-of-path:name';

/**
 * `@Param('*', ...pipes)` for a route path ending in `/*`, under the name the API documents it by
 * (`pagePath`): the OpenAPI document and the route checks read that name with `restOfPathName`.
 */
export function RestOfPath(
  name: string,
  ...pipes: (Type<PipeTransform> | PipeTransform)[]
): ParameterDecorator {
  const param = Param(REST_OF_PATH, ...pipes);
  return (target, key, index) => {
    param(target, key, index);
    if (key !== undefined) Reflect.defineMetadata(REST_NAME, name, target.constructor, key);
  };
}

/** The name of a handler's rest-of-path parameter, or undefined when it reads none. */
export function restOfPathName(controller: Type, handler: string): string | undefined {
  return Reflect.getMetadata(REST_NAME, controller, handler);
}
