import type { TestApp } from './app-harness';
import type { Expectation } from './bad-input';
import { checkingFetch } from './checked-responses';

const checkedFetch = checkingFetch();

export interface RawReply {
  status: number;
  text: string;
  /** The parsed body, or undefined when it is not JSON. */
  json: unknown;
}

/**
 * One request with full control of what goes on the wire: the path as given (already encoded), a raw
 * Authorization header (null for none) and raw body text sent as JSON. A 2xx answer on a /v1 route is
 * checked against its response schema (checked-responses.ts).
 */
export async function send(
  app: TestApp,
  method: string,
  path: string,
  options: { authorization?: string | null; raw?: string; query?: string } = {},
): Promise<RawReply> {
  const headers: Record<string, string> = {};
  const authorization = options.authorization === undefined ? `Bearer ${app.token}` : options.authorization;
  if (authorization !== null) headers.authorization = authorization;
  if (options.raw !== undefined) headers['content-type'] = 'application/json';
  const url = `${app.url}${path}${options.query ? `?${options.query}` : ''}`;
  const response = await checkedFetch(url, { method, headers, body: options.raw });
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, text, json };
}

const WORD = /[\p{L}\p{N}\p{M}_$.]/u;

/** Whether the message names `name` as a whole (not inside a longer word or path). */
export function namesField(message: string, name: string): boolean {
  for (let at = message.indexOf(name); at >= 0; at = message.indexOf(name, at + 1)) {
    const before = at > 0 ? message[at - 1] : '';
    const after = message[at + name.length] ?? '';
    if (!WORD.test(before) && !WORD.test(after)) return true;
  }
  return false;
}

function excerpt(reply: RawReply): string {
  return `${reply.status} ${reply.text.length > 300 ? `${reply.text.slice(0, 300)}…` : reply.text}`;
}

/** Why the answer is not the error envelope `{error: {code, message}}` with code equal to the status, if it is not. */
export function envelopeProblem(reply: RawReply): string | undefined {
  const body = reply.json as { error?: { code?: unknown; message?: unknown } } | undefined;
  const ok =
    body !== null &&
    typeof body === 'object' &&
    Object.keys(body).join() === 'error' &&
    body.error !== null &&
    typeof body.error === 'object' &&
    Object.keys(body.error).sort().join() === 'code,message' &&
    body.error.code === reply.status &&
    typeof body.error.message === 'string' &&
    body.error.message.length > 0;
  return ok ? undefined : `not the error envelope: ${excerpt(reply)}`;
}

/** Why the answer does not meet the expectation (status, envelope, field named), if it does not. */
export function answerProblem(reply: RawReply, expected: Expectation): string | undefined {
  if (reply.status !== expected.status) return `expected ${expected.status}, got ${excerpt(reply)}`;
  const envelope = envelopeProblem(reply);
  if (envelope) return envelope;
  const message = (reply.json as { error: { message: string } }).error.message;
  const named = expected.names !== undefined && namesField(message, expected.names);
  const matched = expected.message?.test(message) ?? false;
  if (expected.names !== undefined && !named && !matched) {
    return `the message does not name ${JSON.stringify(expected.names)}: ${JSON.stringify(message)}`;
  }
  if (expected.names === undefined && expected.message && !matched) {
    return `the message does not match ${expected.message}: ${JSON.stringify(message)}`;
  }
  return undefined;
}

/** The log head, to prove a refused request appended nothing. */
export function logHead(app: TestApp): Promise<number> {
  return app.built.storage.events.headPosition();
}
