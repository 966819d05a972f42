import { isUtf8 } from 'node:buffer';
import type { FastifyInstance, FastifyRequest } from 'fastify';

type Done = (error: Error | null, body?: unknown) => void;

/**
 * The JSON body parser: bytes that are not UTF-8 (RFC 8259 §8.1) are a 400, not text with U+FFFD in place
 * of what the client sent, stored in a title or a page as if meant. Valid bodies go to Fastify's own
 * parser, which keeps its guard against prototype poisoning.
 */
export function utf8JsonParser(fastify: FastifyInstance) {
  const parse = fastify.getDefaultJsonParser('error', 'error');
  return (request: FastifyRequest, body: Buffer, done: Done): void => {
    if (!isUtf8(body)) {
      done(Object.assign(new Error('body: is not valid UTF-8'), { statusCode: 400 }));
      return;
    }
    parse(request, body.toString('utf8'), done);
  };
}
