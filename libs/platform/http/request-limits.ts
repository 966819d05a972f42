import type { Socket } from 'node:net';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import { errorBody } from './errors';

/** A route that takes a form (`application/x-www-form-urlencoded`), as the SAML HTTP-POST binding posts. */
export const AcceptsForm = () => RouteConfig({ acceptsForm: true });

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;
const FORM_TYPE = /^application\/x-www-form-urlencoded\s*(?:;|$)/i;

/**
 * A body in any other form than JSON is a 415 before it is read, in the envelope: the API takes JSON,
 * and a form or text parsed into a string or an object would reach validation as something it is not.
 * Routes declared `@AcceptsForm()` take a form too.
 */
export function refuseOtherBodies(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', async (request, reply) => {
    const length = request.headers['content-length'];
    const hasBody =
      request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
    if (!hasBody) return;
    const type = request.headers['content-type'] ?? '';
    if (JSON_TYPE.test(type)) return;
    const config = request.routeOptions.config as { acceptsForm?: boolean } | undefined;
    if (config?.acceptsForm && FORM_TYPE.test(type)) return;
    const accepted = config?.acceptsForm
      ? 'application/json or application/x-www-form-urlencoded'
      : 'application/json';
    await reply
      .status(415)
      .send(
        errorBody(
          415,
          `content-type: ${type ? `${type.split(';')[0]} is` : 'none is'} not accepted; send ${accepted}`,
        ),
      );
  });
}

/** What Node's parser refuses before any route sees the request: the status it stands for. */
function clientErrorStatus(error: NodeJS.ErrnoException): { status: number; message: string } {
  if (error.code === 'HPE_HEADER_OVERFLOW')
    return { status: 431, message: 'Request header fields too large' };
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return { status: 408, message: 'Request timeout: the request was not sent in time' };
  return { status: 400, message: 'Malformed HTTP request' };
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

/**
 * Answers a request Node's HTTP parser refused (a malformed request, headers too large, a request not
 * sent in time) in the error envelope, then closes the connection, instead of a bare status line.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const { status, message } = clientErrorStatus(error);
  const body = JSON.stringify(errorBody(status, message));
  socket.end(
    `HTTP/1.1 ${status} ${REASONS[status]}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}
