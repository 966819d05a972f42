import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Optional } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, type DomainErrorKind } from '../domain/decider';
import { Observability } from '../observability/observability';
import { ProjectionTimeoutError } from '../projector/position-waits';
import { PreconditionFailedError } from '../write/command-runner';

const STATUS_BY_KIND: Record<DomainErrorKind, number> = {
  not_found: 404,
  unauthorized: 401,
  conflict: 409,
  invalid: 400,
  forbidden: 403,
  gone: 410,
  precondition_failed: 412,
  unprocessable: 422,
  too_large: 413,
  unavailable: 503,
};

/** The one place where errors become HTTP answers: always `{error: {code, message}}`, never a stack trace. */
export function toHttpError(error: unknown): { status: number; message: string } {
  if (error instanceof DomainError) return { status: STATUS_BY_KIND[error.kind], message: error.message };
  if (error instanceof PreconditionFailedError) return { status: 412, message: error.message };
  if (error instanceof ProjectionTimeoutError) {
    return { status: 503, message: 'The write was stored but views are lagging; retry the read shortly' };
  }
  if (error instanceof HttpException) {
    const response = error.getResponse();
    const message =
      typeof response === 'string'
        ? response
        : messageOf((response as { message?: unknown }).message) || error.message;
    return { status: error.getStatus(), message };
  }
  // Fastify's own errors (malformed JSON, body too large, bad content type) carry a 4xx status code.
  const status = (error as { statusCode?: unknown })?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return { status, message: (error as Error).message };
  }
  return { status: 500, message: 'Internal server error' };
}

function messageOf(value: unknown): string {
  if (Array.isArray(value)) return value.join('; ');
  return typeof value === 'string' ? value : '';
}

export function errorBody(status: number, message: string) {
  return { error: { code: status, message } };
}

@Catch()
export class ErrorEnvelopeFilter implements ExceptionFilter {
  /** Absent only in an application context that serves no HTTP (the CLI). */
  constructor(@Optional() private readonly observability?: Observability) {}

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const { status, message } = toHttpError(error);
    if (status >= 500) {
      const correlationId = http.getRequest<FastifyRequest>().id;
      const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
      this.observability?.logger.error({ context: 'http', correlationId }, detail);
    }
    if (status === 429 || status === 503) reply.header('Retry-After', '1');
    reply.status(status).send(errorBody(status, message));
  }
}
