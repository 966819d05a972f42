import type Database from 'better-sqlite3';
import type { Doc } from '../read-store.port';

/*
 * Storage: one table per collection, `"docs:<collection>" (id TEXT PRIMARY KEY, doc TEXT)`, rather
 * than one shared table keyed by (coll, id). With a shared table, the (coll, id) primary key competes
 * with every partial expression index, and without ANALYZE statistics SQLite assumes `coll = ?` is
 * highly selective: it picks the primary key plus a sort over the whole collection instead of the
 * index range scan. Separate tables leave the expression indexes as the only way to filter and sort.
 * Within a generation tables are never dropped (`clear()` deletes rows), so cached statements stay
 * valid until `promote` retires the whole generation.
 *
 * Tables keep their rowid: documents can be large, and WITHOUT ROWID tables degrade with large rows.
 * A collection of small documents declared `clustered` (see IndexSpec) is the exception.
 */
export const DOCS = 'docs:';
export const CHECKPOINTS = 'checkpoints';
export const RETIRED = 'retired:';

/** Field names are inlined into SQL (JSON paths, index definitions), so only plain identifiers pass. */
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export type Bind = string | number | Buffer | null;
export type Stmt = Database.Statement<Bind[], unknown>;

/**
 * Booleans are stored in field columns as one-byte blobs: SQLite has no boolean type, and as 1/0 they
 * would equal the numbers 1 and 0. Blobs sort after text, as booleans sort after strings in MongoDB.
 */
const FALSE = Buffer.from([0]);
const TRUE = Buffer.from([1]);

/** The SQL expression reading a field of a collection's documents (its column, when it has one). */
export type FieldSql = (field: string) => string;

/**
 * A row's document as stored: its JSON without `id`, which the row's key holds (a document's id was a
 * tenth of an audit entry). Rows written before kept it in their JSON too, which reads back the same.
 */
export function storedJson(doc: Doc): string {
  const { id: _id, ...body } = doc;
  return JSON.stringify(body);
}

/** The SQL of a row's document as JSON with its `id` first, as the document was put. */
export const DOC_JSON = `'{"id":' || json_quote(id) || CASE WHEN doc = '{}' THEN '}' ELSE ',' || substr(doc, 2) END`;

export function checkField(field: string): string {
  if (!FIELD_NAME.test(field)) throw new Error(`Unsupported field name for a read-store query: ${field}`);
  return field;
}

export function columnName(field: string): string {
  return sqlIdentifier(`f:${checkField(field)}`);
}

/** The column's value computed from the JSON document: fills a new column and stands in while it is missing. */
export function jsonFieldExpr(field: string): string {
  const path = `'$.${checkField(field)}'`;
  return `CASE json_type(doc, ${path}) WHEN 'true' THEN x'01' WHEN 'false' THEN x'00' ELSE json_extract(doc, ${path}) END`;
}

/** What a field column holds for a document's value; objects and arrays as JSON text, as json_extract gives. */
export function columnValue(value: unknown): Bind {
  if (value === undefined || value === null) return null;
  if (typeof value === 'boolean') return value ? TRUE : FALSE;
  if (typeof value === 'number' || typeof value === 'string') return value;
  return JSON.stringify(value);
}

export function sameValue(a: Bind, b: Bind): boolean {
  return a === b || (Buffer.isBuffer(a) && Buffer.isBuffer(b) && a.equals(b));
}

export function sqlIdentifier(value: string): string {
  return `"${value.replaceAll('"', '""')}"`;
}

/** What every table and index name of a generation starts with (see generations.ts). */
export function generationPrefix(generation: number): string {
  return generation === 1 ? '' : `g${generation}:`;
}

/** The generation a table belongs to; undefined for `meta`. */
export function generationOfTable(name: string): number | undefined {
  const numbered = /^g(\d+):(docs:|checkpoints$)/.exec(name);
  if (numbered) return Number(numbered[1]);
  return name.startsWith(DOCS) || name === CHECKPOINTS ? 1 : undefined;
}
