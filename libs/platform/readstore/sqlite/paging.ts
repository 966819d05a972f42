import type Database from 'better-sqlite3';
import { type Doc, type FindQuery, idRange, type Page, type Scalar } from '../read-store.port';
import type { Generation } from './generation';
import { type Bind, checkField, columnValue, DOC_JSON, type FieldSql, type Stmt } from './schema';

/*
 * How `find` reads a page: keyset pagination over the index that covers its `where` and `orderBy`,
 * one index range scan per segment of the sort order, with statements cached per query shape.
 */

/**
 * A lower bound below every non-null value: SQLite orders NULL < numbers < text, and this is -Infinity.
 * `expr >= -9e999` is a range the index can seek to, where `expr IS NOT NULL` scans past the nulls.
 */
const ABOVE_NULL = '-9e999';

type Direction = 'asc' | 'desc';

/** What a page of `find` reads, with the defaults applied and the filter compiled. */
export interface PageRead {
  collection: string;
  where: WhereClause;
  orderBy: string;
  direction: Direction;
  after: FindQuery['after'];
}

interface WhereClause {
  /** Cache key part: the fields, which are matched against null (that changes the SQL), an id range. */
  key: string;
  terms: { field: string; isNull: boolean }[];
  /** Whether ids are limited to a range (`idPrefix`), whose bounds are the last two `args`. */
  idRange: boolean;
  args: Bind[];
}

/**
 * A run of the sort order read by one index range scan. Missing/null sort values sort first
 * ascending and last descending; giving them their own segment keeps every cursor a range seek
 * (an `OR sortField IS NULL` would make SQLite scan the index from its start).
 */
type Segment =
  | { kind: 'id'; afterId?: string }
  | { kind: 'nulls'; afterId?: string }
  | { kind: 'values'; after?: { value: Bind; id: string }; unique: boolean };

export function pageRead(collection: string, query: FindQuery): PageRead {
  const { orderBy = 'id', direction = 'asc', after } = query;
  return { collection, where: whereClause(query.where, query.idPrefix), orderBy, direction, after };
}

/** A page of `limit` documents with the total count, from a generation where the collection has a table. */
export function readPage<T extends Doc>(g: Generation, read: PageRead, limit: number): Page<T> {
  const { collection, where, orderBy } = read;
  const count = countStatement(g, collection, where).get(...where.args) as number;
  if (limit <= 0) return { items: [], count };
  const rows = fetchRows(g, read, limit + 1);
  const docs = rows.map((json) => JSON.parse(json) as T);
  if (docs.length <= limit) return { items: docs, count };
  const items = docs.slice(0, limit);
  const last = items[items.length - 1];
  return { items, count, next: { value: sortValue(last, orderBy), id: last.id } };
}

/** The query plan lines of the statements a page reads. */
export function explainPage(g: Generation, read: PageRead, db: Database.Database): string[] {
  return segments(g, read).flatMap((segment) => {
    const sql = segmentStatement(g, read, segment).source;
    const args = [...read.where.args, ...segmentArgs(segment), 1];
    const rows = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as { detail: string }[];
    return rows.map((row) => row.detail);
  });
}

/** How `uniqueOrders` names a `where` (its fields, none matched against null) and an `orderBy`. */
export function uniqueOrderKey(whereFields: string[], orderBy: string): string {
  return JSON.stringify([[...whereFields].sort(), orderBy]);
}

function whereClause(where: Record<string, Scalar> = {}, idPrefix?: string): WhereClause {
  const keys: string[] = [];
  const terms: WhereClause['terms'] = [];
  const args: Bind[] = [];
  for (const [field, value] of Object.entries(where)) {
    if (field !== 'id') checkField(field);
    const bind = columnValue(value);
    const isNull = bind === null;
    keys.push(`${field}:${isNull ? 'null' : 'value'}`);
    terms.push({ field, isNull });
    if (!isNull) args.push(bind);
  }
  if (idPrefix === undefined) return { key: keys.join(','), terms, idRange: false, args };
  // A range of the primary key: SQLite seeks to it, and counts it from the key alone.
  const { from, to } = idRange(idPrefix);
  return { key: `${keys.join(',')}|id-range`, terms, idRange: true, args: [...args, from, to] };
}

function whereTerms(where: WhereClause, sql: FieldSql): string[] {
  const equal = where.terms.map(({ field, isNull }) => `${sql(field)} ${isNull ? 'IS NULL' : '= ?'}`);
  return where.idRange ? [...equal, 'id >= ?', 'id < ?'] : equal;
}

/** The segments a page reads (see segmentsFor), without the `id` tie-breaker where a unique index allows. */
function segments(g: Generation, { collection, where, orderBy, direction, after }: PageRead): Segment[] {
  const orders = g.table(collection)?.uniqueOrders;
  const fields = where.terms.map((term) => term.field);
  const unique =
    orders !== undefined &&
    orders.size > 0 &&
    !where.terms.some((term) => term.isNull) &&
    orders.has(uniqueOrderKey(fields, orderBy));
  return segmentsFor(orderBy, direction, after, unique);
}

/**
 * The segments still to read, in order, for a page starting after `after`. `unique`: the sort values
 * have no ties within the `where` (a unique index), so they are read without the `id` tie-breaker.
 */
function segmentsFor(
  orderBy: string,
  direction: Direction,
  after: FindQuery['after'],
  unique = false,
): Segment[] {
  if (orderBy === 'id') return [{ kind: 'id', afterId: after?.id }];
  const asc = direction === 'asc';
  const allValues: Segment = { kind: 'values', unique };
  if (!after) return asc ? [{ kind: 'nulls' }, allValues] : [allValues, { kind: 'nulls' }];
  const value = columnValue(after.value);
  if (value === null) {
    const nulls: Segment = { kind: 'nulls', afterId: after.id };
    return asc ? [nulls, allValues] : [nulls];
  }
  const values: Segment = { kind: 'values', after: { value, id: after.id }, unique };
  return asc ? [values] : [values, { kind: 'nulls' }];
}

function segmentHasCursor(segment: Segment): boolean {
  return segment.kind === 'values' ? segment.after !== undefined : segment.afterId !== undefined;
}

function segmentArgs(segment: Segment): Bind[] {
  if (segment.kind !== 'values') return segment.afterId === undefined ? [] : [segment.afterId];
  if (!segment.after) return [];
  const { value, id } = segment.after;
  return segment.unique ? [value] : [value, value, id];
}

/** Filter terms and ORDER BY of one segment; a value cursor is `s >= ? AND (s > ? OR id > ?)` so it seeks. */
function segmentSql(
  segment: Segment,
  orderBy: string,
  direction: Direction,
  sql: FieldSql,
): { terms: string[]; order: string } {
  const dir = direction === 'asc' ? 'ASC' : 'DESC';
  const [cmp, cmpOrEq] = direction === 'asc' ? ['>', '>='] : ['<', '<='];
  const idCursor = segment.kind !== 'values' && segment.afterId !== undefined ? [`id ${cmp} ?`] : [];
  if (segment.kind === 'id') return { terms: idCursor, order: `id ${dir}` };
  const sort = sql(orderBy);
  if (segment.kind === 'nulls') return { terms: [`${sort} IS NULL`, ...idCursor], order: `id ${dir}` };
  if (segment.unique) {
    const terms = segment.after ? [`${sort} ${cmp} ?`] : [`${sort} >= ${ABOVE_NULL}`];
    return { terms, order: `${sort} ${dir}` };
  }
  const terms = segment.after
    ? [`${sort} ${cmpOrEq} ?`, `(${sort} ${cmp} ? OR id ${cmp} ?)`]
    : [`${sort} >= ${ABOVE_NULL}`];
  return { terms, order: `${sort} ${dir}, id ${dir}` };
}

function whereSql(terms: string[]): string {
  return terms.length === 0 ? '' : ` WHERE ${terms.join(' AND ')}`;
}

function sortValue(doc: Doc, orderBy: string): Scalar {
  const value = doc[orderBy];
  return value === undefined ? null : (value as Scalar);
}

/** Reads segments in order until `need` rows are collected. */
function fetchRows(g: Generation, read: PageRead, need: number): string[] {
  const rows: string[] = [];
  for (const segment of segments(g, read)) {
    const stmt = segmentStatement(g, read, segment);
    rows.push(...(stmt.all(...read.where.args, ...segmentArgs(segment), need - rows.length) as string[]));
    if (rows.length >= need) break;
  }
  return rows;
}

function segmentStatement(
  g: Generation,
  { collection, where, orderBy, direction }: PageRead,
  segment: Segment,
): Stmt {
  const unique = segment.kind === 'values' && segment.unique;
  const shape = [collection, where.key, orderBy, direction, segment.kind, segmentHasCursor(segment), unique];
  return g.shape(`find\u0000${shape.join('\u0000')}`, () => {
    const sql = g.fieldSql(collection);
    const { terms, order } = segmentSql(segment, orderBy, direction, sql);
    const filter = whereSql([...whereTerms(where, sql), ...terms]);
    return `SELECT ${DOC_JSON} FROM ${g.tableName(collection)}${filter} ORDER BY ${order} LIMIT ?`;
  });
}

function countStatement(g: Generation, collection: string, where: WhereClause): Stmt {
  return g.shape(`count\u0000${collection}\u0000${where.key}`, () => {
    const filter = whereSql(whereTerms(where, g.fieldSql(collection)));
    return `SELECT count(*) FROM ${g.tableName(collection)}${filter}`;
  });
}
