import { DomainError, invalid } from '@app/platform/domain/decider';

/**
 * Refusals name the change and field they are about (`changes[2].page: page x not found`), since the
 * whole batch is refused for one of them. Inputs are checked here even when the HTTP layer validated
 * them, because the domain is called by other callers too.
 */
export const changePath = (index: number) => `changes[${index}]`;

/** A refusal from deeper code (the editor, the Markdown reader) named after the change it came from. */
export function named(error: unknown, path: string): unknown {
  if (!(error instanceof DomainError) || error.message.startsWith('changes[')) return error;
  return new DomainError(error.kind, `${path}: ${error.message}`);
}

export function requireString(value: unknown, path: string): string {
  if (typeof value !== 'string' || value === '') throw invalid(`${path}: must be a non-empty string`);
  return value;
}

export function optionalString(value: unknown, path: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalid(`${path}: must be a string`);
  return value;
}

export function optionalBoolean(value: unknown, path: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') throw invalid(`${path}: must be a boolean`);
  return value;
}

/** A zero-based index among siblings. */
export function optionalIndex(value: unknown, path: string): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || (value as number) < 0) throw invalid(`${path}: must be an integer ≥ 0`);
  return value as number;
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
