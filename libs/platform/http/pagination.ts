import { BadRequestException } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import type { FindQuery, Page, Scalar } from '../readstore/read-store.port';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 1000;

/** A page request: how many and from where (the opaque token of a previous page). */
export interface ListQuery {
  page?: string;
  limit?: number;
}

export class ListQueryDto implements ListQuery {
  @IsOptional()
  @IsString()
  @MaxLength(512)
  page?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(MAX_PAGE_SIZE)
  limit?: number;
}

export interface ListEnvelope<T> {
  next?: { page: string };
  count: number;
  items: T[];
}

/** Page tokens are opaque to clients: the keyset cursor, encoded. */
export function encodePage(cursor: { value: Scalar; id: string }): string {
  return Buffer.from(JSON.stringify([cursor.value, cursor.id])).toString('base64url');
}

export function decodePage(page: string | undefined): { value: Scalar; id: string } | undefined {
  if (page === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(page, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && parsed.length === 2 && typeof parsed[1] === 'string') {
      const [value, id] = parsed;
      if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) return { value, id };
    }
  } catch {
    // fall through to the error below
  }
  throw new BadRequestException('page: not a valid page token');
}

/** The offset a page token of a list ranked in memory holds (search results, links); a bad one is a 400. */
export function decodeOffset(page: string | undefined): number {
  const value = decodePage(page)?.value ?? 0;
  if (!Number.isSafeInteger(value) || (value as number) < 0)
    throw new BadRequestException('page: not a valid page token');
  return value as number;
}

export const encodeOffset = (offset: number): string => encodePage({ value: offset, id: '' });

/**
 * A page of a list ranked or computed in memory (search results, links): its items, where they start,
 * and `next` to spread into the envelope while more follow.
 */
export function offsetPage<T>(list: readonly T[], query: ListQuery, defaultLimit: number) {
  const offset = decodeOffset(query.page);
  const limit = query.limit ?? defaultLimit;
  const more = offset + limit < list.length;
  return {
    offset,
    items: list.slice(offset, offset + limit),
    next: more ? { next: { page: encodeOffset(offset + limit) } } : {},
  };
}

export function pageQuery(query: ListQuery, base: Omit<FindQuery, 'limit' | 'after'>): FindQuery {
  return { ...base, limit: query.limit ?? DEFAULT_PAGE_SIZE, after: decodePage(query.page) };
}

export function toList<D, T>(page: Page<D>, present: (doc: D) => T): ListEnvelope<T> {
  return {
    ...(page.next ? { next: { page: encodePage(page.next) } } : {}),
    count: page.count,
    items: page.items.map(present),
  };
}
