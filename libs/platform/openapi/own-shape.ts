import { SetMetadata } from '@nestjs/common';

export const OWN_SHAPE = 'openapi:own-shape';

/**
 * Marks a handler whose route is also GitBook's but whose answer the specification shapes differently (the
 * seeds win): the API document keeps GitBook's operationId and leaves GitBook's response schema out,
 * saying `shape` instead.
 */
export const OwnShape = (shape: string) => SetMetadata(OWN_SHAPE, shape);
