import type Database from 'better-sqlite3';
import { openWalDatabase } from '../sqlite/open-database';
import { startCheckpoints } from '../sqlite/wal-checkpointer';
import { CommitThread } from './commit-thread';
import {
  CheckpointConflictError,
  type CheckpointWrite,
  type Doc,
  type FindQuery,
  type IndexSpec,
  type Page,
  type ReadStore,
  type Scalar,
  type Write,
} from './read-store.port';
import { forEachSerialized, type SerializedBatch } from './serialized-batch';

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
 *
 * Generations: every table and index name starts with its generation's prefix (`g<n>:`, none for
 * generation 1, so files written before generations existed are generation 1 as they are), and table
 * `meta` holds the live generation. `promote` switches `meta` and renames every older generation's
 * tables out of the way (`retired:` before their names) in one transaction. That is how other
 * connections follow without reading `meta` on each read: their cached statements on those tables fail
 * with "no such table", and they then re-read `meta` and run the read again on the new generation; a
 * read that started before the switch ends on its WAL snapshot, where the old tables still exist. So no
 * read sees a missing or half-built generation, and the common read costs no extra query. Writes
 * through a live handle read `meta` inside their transaction, so they never land in a retired generation.
 *
 * Retired tables are dropped afterwards, an index or a table per transaction, in the background: a
 * drop reads every page of what it drops (about 2 s for the views of a million events here), and in the
 * switching transaction it would hold the file's write lock, and the server's commits, for all of it.
 */
const DOCS = 'docs:';
const CHECKPOINTS = 'checkpoints';
const RETIRED = 'retired:';

/** Field names are inlined into SQL (JSON paths, index definitions), so only plain identifiers pass. */
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * A lower bound below every non-null value: SQLite orders NULL < numbers < text, and this is -Infinity.
 * `expr >= -9e999` is a range the index can seek to, where `expr IS NOT NULL` scans past the nulls.
 */
const ABOVE_NULL = '-9e999';

type Bind = string | number | Buffer | null;

/**
 * Page cache of a views connection (KiB): large, so a batch's dirty index pages stay in memory until its
 * commit; with the 2 MB default a big batch spills them to the WAL again and again (random ids touch
 * pages all over).
 */
const PAGE_CACHE = -65_536;
/** Page cache while an index is built: SQLite's default (see `buildIndex`). */
const SORT_CACHE = -2_000;

/**
 * Booleans are stored in field columns as one-byte blobs: SQLite has no boolean type, and as 1/0 they
 * would equal the numbers 1 and 0. Blobs sort after text, as booleans sort after strings in MongoDB.
 */
const FALSE = Buffer.from([0]);
const TRUE = Buffer.from([1]);
type Stmt = Database.Statement<Bind[], unknown>;
type Direction = 'asc' | 'desc';

/** What a page of `find` reads, with the defaults applied and the filter compiled. */
interface PageRead {
  collection: string;
  where: WhereClause;
  orderBy: string;
  direction: Direction;
  after: FindQuery['after'];
}

function pageRead(collection: string, query: FindQuery): PageRead {
  const { orderBy = 'id', direction = 'asc', after } = query;
  return { collection, where: whereClause(query.where), orderBy, direction, after };
}

/** The statements every known collection needs, prepared once its table exists. */
interface TableStatements {
  /** Fields with a column of their own, in the order `put` binds them after id and doc. */
  fields: string[];
  get: Stmt;
  all: Stmt;
  /** The field columns of a row (an empty row when there are none), or undefined without the row. */
  columnsOf: Stmt;
  insert: Stmt;
  /** Insert or overwrite in one statement: for tables with no index besides the primary key. */
  upsert: Stmt;
  /** Whether the table has indexes of its own (field indexes), whose entries an update may rewrite. */
  indexed: boolean;
  /** The `where` fields and `orderBy` (see uniqueOrderKey) that a unique index orders without a tie. */
  uniqueOrders: Set<string>;
  /** Sets `doc` and the field columns whose positions are given, no others: see `applyWrite`. */
  update(changed: number[]): Stmt;
  delete: Stmt;
  hasRows: Stmt;
  clear: Stmt;
}

interface CheckpointStatements {
  get: Stmt;
  put: Stmt;
  clear: Stmt;
}

interface WhereClause {
  /** Cache key part: the fields, and which are matched against null (that changes the SQL). */
  key: string;
  terms: { field: string; isNull: boolean }[];
  args: Bind[];
}

/** The SQL expression reading a field of a collection's documents (its column, when it has one). */
type FieldSql = (field: string) => string;

/**
 * A run of the sort order read by one index range scan. Missing/null sort values sort first
 * ascending and last descending; giving them their own segment keeps every cursor a range seek
 * (an `OR sortField IS NULL` would make SQLite scan the index from its start).
 */
type Segment =
  | { kind: 'id'; afterId?: string }
  | { kind: 'nulls'; afterId?: string }
  | { kind: 'values'; after?: { value: Bind; id: string }; unique: boolean };

function checkField(field: string): string {
  if (!FIELD_NAME.test(field)) throw new Error(`Unsupported field name for a read-store query: ${field}`);
  return field;
}

function columnName(field: string): string {
  return sqlIdentifier(`f:${checkField(field)}`);
}

/** The column's value computed from the JSON document: fills a new column and stands in while it is missing. */
function jsonFieldExpr(field: string): string {
  const path = `'$.${checkField(field)}'`;
  return `CASE json_type(doc, ${path}) WHEN 'true' THEN x'01' WHEN 'false' THEN x'00' ELSE json_extract(doc, ${path}) END`;
}

/** What a field column holds for a document's value; objects and arrays as JSON text, as json_extract gives. */
function columnValue(value: unknown): Bind {
  if (value === undefined || value === null) return null;
  if (typeof value === 'boolean') return value ? TRUE : FALSE;
  if (typeof value === 'number' || typeof value === 'string') return value;
  return JSON.stringify(value);
}

function sqlIdentifier(value: string): string {
  return `"${value.replaceAll('"', '""')}"`;
}

function generationPrefix(generation: number): string {
  return generation === 1 ? '' : `g${generation}:`;
}

/** The generation a table belongs to; undefined for `meta`. */
function generationOfTable(name: string): number | undefined {
  const numbered = /^g(\d+):(docs:|checkpoints$)/.exec(name);
  if (numbered) return Number(numbered[1]);
  return name.startsWith(DOCS) || name === CHECKPOINTS ? 1 : undefined;
}

/** By message, not `instanceof`: the addon may build its errors in another realm (as under Jest). */
function isMissingTable(error: unknown): boolean {
  return /no such table/.test(String((error as { message?: unknown } | null)?.message));
}

/** What a read returns when its table does not exist in the generation it looked at. */
const MISSING = Symbol('missing table');
type Missing = typeof MISSING;

function sameValue(a: Bind, b: Bind): boolean {
  return a === b || (Buffer.isBuffer(a) && Buffer.isBuffer(b) && a.equals(b));
}

function whereClause(where: Record<string, Scalar> = {}): WhereClause {
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
  return { key: keys.join(','), terms, args };
}

function whereTerms(where: WhereClause, sql: FieldSql): string[] {
  return where.terms.map(({ field, isNull }) => `${sql(field)} ${isNull ? 'IS NULL' : '= ?'}`);
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

/** How `uniqueOrders` names a `where` (its fields, none matched against null) and an `orderBy`. */
function uniqueOrderKey(whereFields: string[], orderBy: string): string {
  return JSON.stringify([[...whereFields].sort(), orderBy]);
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

/** One generation's tables and the statements prepared on them, shared by every handle of a store. */
class Generation {
  private readonly prefix: string;
  /** Collections whose table is known to exist. */
  private readonly tables = new Map<string, TableStatements>();
  /** find/count statements per query shape. */
  private readonly shapes = new Map<string, Stmt>();
  private checkpointStatements?: CheckpointStatements;

  constructor(
    private readonly core: SqliteCore,
    readonly number: number,
  ) {
    this.prefix = generationPrefix(number);
  }

  tableName(collection: string): string {
    return sqlIdentifier(`${this.prefix}${DOCS}${collection}`);
  }

  get checkpointsTable(): string {
    return sqlIdentifier(`${this.prefix}${CHECKPOINTS}`);
  }

  /** An index's name as stored in the schema (unquoted): `ux` for a unique index, `ix` for the others. */
  indexName(collection: string, fields: string[], unique = false): string {
    return `${this.prefix}${unique ? 'ux' : 'ix'}${JSON.stringify([collection, fields])}`;
  }

  /** What the unique indexes among a table's `names` order without ties (see uniqueOrderKey). */
  private uniqueOrders(names: string[]): Set<string> {
    const prefix = `${this.prefix}ux`;
    return new Set(
      names.flatMap((name) => {
        if (!name.startsWith(prefix)) return [];
        const [, fields] = JSON.parse(name.slice(prefix.length)) as [string, string[]];
        return [uniqueOrderKey(fields.slice(0, -1), fields[fields.length - 1])];
      }),
    );
  }

  /** How queries read each field of `collection`: its column, or the JSON expression while it has none. */
  fieldSql(collection: string): FieldSql {
    const fields = new Set(this.table(collection)?.fields);
    return (field) => {
      if (field === 'id') return 'id';
      return fields.has(field) ? columnName(field) : jsonFieldExpr(field);
    };
  }

  /** Gives `fields` columns of their own, filled from the documents already stored. */
  ensureColumns(collection: string, fields: string[]): void {
    const known = new Set(this.createTable(collection).fields);
    const missing = fields.filter((field) => field !== 'id' && !known.has(field));
    if (missing.length === 0) return;
    const table = this.tableName(collection);
    for (const field of missing) {
      this.core.db.exec(`ALTER TABLE ${table} ADD COLUMN ${columnName(field)}`);
      this.core.db.exec(`UPDATE ${table} SET ${columnName(field)} = ${jsonFieldExpr(field)}`);
    }
    this.tables.delete(collection);
    this.shapes.clear();
    this.register(collection);
  }

  /** Drops indexes in the earlier format, on JSON expressions; their upkeep would slow every write. */
  dropLegacyIndexes(collection: string): void {
    const legacy = `${this.prefix}idx[`;
    const names = this.core
      .prepare(
        "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = ? AND substr(name, 1, ?) = ?",
      )
      .pluck()
      .all(`${this.prefix}${DOCS}${collection}`, legacy.length, legacy) as string[];
    for (const name of names) this.core.db.exec(`DROP INDEX ${sqlIdentifier(name)}`);
  }

  /** The collection's statements, or undefined while it has no table (also sees other connections' tables). */
  table(collection: string): TableStatements | undefined {
    const known = this.tables.get(collection);
    if (known) return known;
    if (!this.core.tableExists(`${this.prefix}${DOCS}${collection}`)) return undefined;
    return this.register(collection);
  }

  createTable(collection: string): TableStatements {
    const known = this.tables.get(collection);
    if (known) return known;
    this.core.db.exec(
      `CREATE TABLE IF NOT EXISTS ${this.tableName(collection)} (id TEXT PRIMARY KEY, doc TEXT NOT NULL)`,
    );
    return this.register(collection);
  }

  /** Collections with a table, in name order. */
  tableNames(): string[] {
    return this.core.tableNamesWithPrefix(`${this.prefix}${DOCS}`);
  }

  checkpoints(): CheckpointStatements | undefined {
    if (this.checkpointStatements) return this.checkpointStatements;
    if (!this.core.tableExists(`${this.prefix}${CHECKPOINTS}`)) return undefined;
    const table = this.checkpointsTable;
    this.checkpointStatements = {
      get: this.core.prepare(`SELECT position FROM ${table} WHERE name = ?`).pluck(),
      put: this.core.prepare(
        `INSERT INTO ${table} (name, position) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET position = excluded.position`,
      ),
      clear: this.core.prepare(`DELETE FROM ${table}`),
    };
    return this.checkpointStatements;
  }

  createCheckpoints(): CheckpointStatements {
    this.core.db.exec(
      `CREATE TABLE IF NOT EXISTS ${this.checkpointsTable} (name TEXT PRIMARY KEY, position INTEGER NOT NULL)`,
    );
    return this.checkpoints() as CheckpointStatements;
  }

  checkpoint(name: string): number {
    return (this.checkpoints()?.get.get(name) as number | undefined) ?? 0;
  }

  /** Single-column statements built per query shape, prepared once. */
  shape(key: string, build: () => string): Stmt {
    let stmt = this.shapes.get(key);
    if (!stmt) {
      stmt = this.core.prepare(build()).pluck();
      this.shapes.set(key, stmt);
    }
    return stmt;
  }

  private register(collection: string): TableStatements {
    const table = this.tableName(collection);
    const fields = (this.core.db.pragma(`table_info(${table})`) as { name: string }[]).flatMap(({ name }) =>
      name.startsWith('f:') ? [name.slice(2)] : [],
    );
    const columns = fields.map(columnName);
    const indexNames = this.core.indexNames(`${this.prefix}${DOCS}${collection}`);
    const updates = new Map<string, Stmt>();
    const insert = `INSERT INTO ${table} (id, doc${columns.map((c) => `, ${c}`).join('')}) VALUES (?, ?${', ?'.repeat(columns.length)})`;
    const statements: TableStatements = {
      fields,
      indexed: indexNames.length > 0,
      uniqueOrders: this.uniqueOrders(indexNames),
      get: this.core.prepare(`SELECT doc FROM ${table} WHERE id = ?`).pluck(),
      all: this.core.prepare(`SELECT doc FROM ${table} ORDER BY id`).pluck(),
      columnsOf: this.core.prepare(`SELECT ${columns.join(', ') || 'NULL'} FROM ${table} WHERE id = ?`).raw(),
      insert: this.core.prepare(insert),
      upsert: this.core.prepare(
        `${insert} ON CONFLICT (id) DO UPDATE SET ${['doc', ...columns].map((c) => `${c} = excluded.${c}`).join(', ')}`,
      ),
      update: (changed) => {
        const key = changed.join(',');
        let stmt = updates.get(key);
        if (!stmt) {
          const set = ['doc = ?', ...changed.map((i) => `${columns[i]} = ?`)].join(', ');
          stmt = this.core.prepare(`UPDATE ${table} SET ${set} WHERE id = ?`);
          updates.set(key, stmt);
        }
        return stmt;
      },
      delete: this.core.prepare(`DELETE FROM ${table} WHERE id = ?`),
      hasRows: this.core.prepare(`SELECT EXISTS (SELECT 1 FROM ${table})`).pluck(),
      clear: this.core.prepare(`DELETE FROM ${table}`),
    };
    this.tables.set(collection, statements);
    return statements;
  }
}

/** The connection, the live generation as last read, and the statement caches, shared by a store's handles. */
class SqliteCore {
  readonly db: Database.Database;
  live: number;
  private readonly generations = new Map<number, Generation>();
  private readonly transaction: Database.Transaction<(body: () => unknown) => unknown>;
  private readonly tableExistsStmt: Stmt;
  private readonly indexNamesStmt: Stmt;
  private readonly indexExistsStmt: Stmt;
  private readonly tableNamesStmt: Stmt;
  private readonly allTablesStmt: Stmt;
  private readonly nextRetiredStmt: Stmt;
  private readonly metaGetStmt: Stmt;
  private readonly metaPutStmt: Stmt;
  private readonly schemaVersionStmt: Stmt;
  private schemaVersion: unknown;
  private readonly stopCheckpoints: () => Promise<void>;
  /** Settles once the retired tables found so far are dropped, or a drop failed (see `dropRetired`). */
  private dropping: Promise<void> = Promise.resolve();

  constructor(
    readonly path: string,
    checkpointedElsewhere = false,
  ) {
    // Views are derived from the log: a commit lost to a power failure (NORMAL skips the fsync per
    // commit in WAL mode) leaves the file consistent with an older checkpoint, and the projector replays
    // from there. A process crash loses nothing either way. The event store keeps FULL.
    this.db = openWalDatabase(path, {
      synchronous: 'NORMAL',
      schema: `CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
        INSERT OR IGNORE INTO meta (key, value) VALUES ('live', 1)`,
    });
    this.db.pragma(`cache_size = ${PAGE_CACHE}`);
    // Index builds sort on a helper thread as well as this one (a rebuild's deferred indexes).
    this.db.pragma('threads = 2');
    this.stopCheckpoints = startCheckpoints(this.db, path, 'NORMAL', checkpointedElsewhere);
    this.tableExistsStmt = this.prepare(
      "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?",
    ).pluck();
    this.indexExistsStmt = this.prepare(
      "SELECT 1 FROM sqlite_schema WHERE type = 'index' AND name = ?",
    ).pluck();
    this.indexNamesStmt = this.prepare(
      "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL",
    ).pluck();
    this.tableNamesStmt = this.prepare(
      `SELECT substr(name, ? + 1) FROM sqlite_schema
       WHERE type = 'table' AND substr(name, 1, ?) = ? ORDER BY name`,
    ).pluck();
    this.allTablesStmt = this.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").pluck();
    // Indexes first (not those SQLite makes itself, which go with their table): dropped one at a time,
    // each holds the write lock for its own pages only.
    this.nextRetiredStmt = this.prepare(
      `SELECT type, name FROM sqlite_schema
       WHERE substr(tbl_name, 1, ${RETIRED.length}) = '${RETIRED}' AND (type = 'table' OR sql IS NOT NULL)
       ORDER BY type = 'table' LIMIT 1`,
    );
    this.metaGetStmt = this.prepare('SELECT value FROM meta WHERE key = ?').pluck();
    this.metaPutStmt = this.prepare(
      'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    );
    this.schemaVersionStmt = this.prepare('PRAGMA schema_version').pluck();
    this.schemaVersion = this.schemaVersionStmt.get();
    this.transaction = this.db.transaction((body: () => unknown) => {
      this.followSchema();
      return body();
    });
    this.live = this.readMeta('live') ?? 1;
    // Left by a process that stopped before it had dropped them all.
    this.dropRetired();
  }

  /**
   * Forgets every cached statement once the schema changed (another connection may have added field
   * columns): writes must fill every column, and queries should use the new ones.
   */
  followSchema(): void {
    const version = this.schemaVersionStmt.get();
    if (version === this.schemaVersion) return;
    this.schemaVersion = version;
    this.generations.clear();
  }

  generation(number: number): Generation {
    let generation = this.generations.get(number);
    if (!generation) {
      generation = new Generation(this, number);
      this.generations.set(number, generation);
    }
    return generation;
  }

  /** Re-reads the live generation from `meta`, forgetting the statements of the generations it retired. */
  refreshLive(): number {
    this.adopt(this.readMeta('live') ?? 1);
    return this.live;
  }

  adopt(live: number): void {
    if (live === this.live) return;
    this.live = live;
    for (const number of this.generations.keys()) if (number < live) this.generations.delete(number);
  }

  /** Drops cached statements of a generation, e.g. after a rolled-back transaction that created tables. */
  forget(number: number): void {
    this.generations.delete(number);
  }

  /** A write transaction taken up front (BEGIN IMMEDIATE), so reading `meta` in it cannot go stale. */
  write<T>(body: () => T): T {
    return this.transaction.immediate(body) as T;
  }

  readMeta(key: string): number | undefined {
    return this.metaGetStmt.get(key) as number | undefined;
  }

  writeMeta(key: string, value: number): void {
    this.metaPutStmt.run(key, value);
  }

  tableExists(name: string): boolean {
    return this.tableExistsStmt.get(name) !== undefined;
  }

  indexExists(name: string): boolean {
    return this.indexExistsStmt.get(name) !== undefined;
  }

  /**
   * Runs a CREATE INDEX with SQLite's default page cache: its sorter sizes its runs by the cache, and
   * runs of 64 MB sort slower than small ones merged (the audit indexes of a million-event log: ~1.7 s
   * each against ~1 s, and 150 MB more memory).
   */
  buildIndex(sql: string): void {
    this.db.pragma(`cache_size = ${SORT_CACHE}`);
    try {
      this.db.exec(sql);
    } finally {
      this.db.pragma(`cache_size = ${PAGE_CACHE}`);
    }
  }

  /** The names of a table's indexes besides its primary key's (which has no SQL of its own). */
  indexNames(table: string): string[] {
    return this.indexNamesStmt.all(table) as string[];
  }

  tableNamesWithPrefix(prefix: string): string[] {
    return this.tableNamesStmt.all(prefix.length, prefix.length, prefix) as string[];
  }

  /** Renames every table of the generations `which` selects out of the way, for `dropRetired` (in a write). */
  retireGenerations(which: (generation: number) => boolean): void {
    for (const name of this.allTablesStmt.all() as string[]) {
      const generation = generationOfTable(name);
      if (generation === undefined || !which(generation)) continue;
      this.db.exec(`ALTER TABLE ${sqlIdentifier(name)} RENAME TO ${sqlIdentifier(`${RETIRED}${name}`)}`);
    }
  }

  /**
   * Drops the retired tables in the background, an index or a table per transaction, letting other work
   * run between them. A failure (the file busy past the timeout) leaves the rest to the next call: the
   * next promote or open.
   */
  dropRetired(): void {
    this.dropping = this.dropping
      .then(async () => {
        for (;;) {
          await new Promise((resolve) => setImmediate(resolve));
          if (!this.db.open || !this.dropRetiredStep()) return;
        }
      })
      .catch((error: unknown) => {
        // This store has no logger; the process's warning goes to its log. Nothing is lost meanwhile.
        process.emitWarning(
          `dropping retired views tables failed, left for the next open or promote: ${error}`,
        );
      });
  }

  /** Drops one retired index, else one retired table; false once none is left. */
  private dropRetiredStep(): boolean {
    return this.write(() => {
      const next = this.nextRetiredStmt.get() as { type: 'index' | 'table'; name: string } | undefined;
      if (next) this.db.exec(`DROP ${next.type === 'index' ? 'INDEX' : 'TABLE'} ${sqlIdentifier(next.name)}`);
      return next !== undefined;
    });
  }

  prepare(sql: string): Stmt {
    return this.db.prepare<Bind[], unknown>(sql);
  }

  /** Closes the connection once the retired tables are dropped. */
  async close(): Promise<void> {
    if (!this.db.open) return;
    await this.dropping;
    if (!this.db.open) return;
    this.generations.clear();
    this.db.close();
    await this.stopCheckpoints();
  }
}

interface Pinned {
  core: SqliteCore;
  generation: number;
}

/** Read models on SQLite (better-sqlite3): WAL, synchronous=NORMAL, one transaction per commit. */
export class SqliteReadStore implements ReadStore {
  private readonly core: SqliteCore;
  /** Set on handles from `forGeneration`: the generation they use whatever is live. */
  private readonly pinned?: number;

  /**
   * `checkpointedElsewhere`: another thread of this process commits to the file and checkpoints it
   * (see `checkpointElsewhere`); this handle's own commits are rare.
   */
  constructor(options: { path: string; checkpointedElsewhere?: boolean } | Pinned) {
    if ('core' in options) {
      this.core = options.core;
      this.pinned = options.generation;
    } else {
      this.core = new SqliteCore(options.path, options.checkpointedElsewhere);
    }
  }

  /**
   * Indexes `fields` in order, then `id` as the tie-breaker: list equality fields first and the sort
   * field last so that `find` with that `where` and `orderBy` is one index range scan.
   */
  async ensureIndexes(indexes: IndexSpec[], options: { deferred?: boolean } = {}): Promise<void> {
    const specs = indexes.map(({ collection, fields, unique = false }) => {
      const columns = fields.map((field) => (field === 'id' ? 'id' : columnName(field)));
      if (!fields.includes('id') && !unique) columns.push('id');
      return { collection, fields, unique, columns };
    });
    this.write((g) => {
      for (const { collection, fields, unique, columns } of specs) {
        g.ensureColumns(collection, fields);
        g.dropLegacyIndexes(collection);
        if (options.deferred) continue;
        const name = g.indexName(collection, fields, unique);
        if (this.core.indexExists(name)) continue;
        // The same fields indexed the other way (a spec that became unique, or stopped being) go.
        this.core.db.exec(`DROP INDEX IF EXISTS ${sqlIdentifier(g.indexName(collection, fields, !unique))}`);
        this.core.buildIndex(
          `CREATE ${unique ? 'UNIQUE ' : ''}INDEX ${sqlIdentifier(name)} ON ${g.tableName(collection)} (${columns.join(', ')})`,
        );
      }
    });
  }

  async get<T extends Doc = Doc>(collection: string, id: string): Promise<T | null> {
    const json = this.read((g) => {
      const table = g.table(collection);
      return table ? ((table.get.get(id) as string | undefined) ?? null) : MISSING;
    }, null);
    return json === null ? null : (JSON.parse(json) as T);
  }

  async find<T extends Doc = Doc>(collection: string, query: FindQuery): Promise<Page<T>> {
    const { limit } = query;
    const read = pageRead(collection, query);
    const { where, orderBy } = read;
    if (orderBy !== 'id') checkField(orderBy);
    this.core.followSchema();
    return this.read(
      (g): Page<T> | Missing => {
        if (!g.table(collection)) return MISSING;
        const count = this.countStatement(g, collection, where).get(...where.args) as number;
        if (limit <= 0) return { items: [], count };
        const rows = this.fetch(g, read, limit + 1);
        const docs = rows.map((json) => JSON.parse(json) as T);
        if (docs.length <= limit) return { items: docs, count };
        const items = docs.slice(0, limit);
        const last = items[items.length - 1];
        return { items, count, next: { value: sortValue(last, orderBy), id: last.id } };
      },
      { items: [], count: 0 },
    );
  }

  async commit(writes: Write[], checkpoint?: CheckpointWrite): Promise<void> {
    this.commitWith(checkpoint, (g) => {
      for (const write of writes) this.applyWrite(g, write);
    });
  }

  /** `commit` for writes whose documents the caller serialized (see SerializedBatch). */
  async commitSerialized(batch: SerializedBatch, checkpoint?: CheckpointWrite): Promise<void> {
    this.commitWith(checkpoint, (g) => {
      forEachSerialized(batch, ({ collection, id, json, created, value }) => {
        if (json === null) g.table(collection)?.delete.run(id);
        else this.putRow(g, collection, id, json, created, value);
      });
    });
  }

  async getCheckpoint(name: string): Promise<number> {
    return this.read((g) => {
      const checkpoints = g.checkpoints();
      return checkpoints ? ((checkpoints.get.get(name) as number | undefined) ?? 0) : MISSING;
    }, 0);
  }

  async all<T extends Doc = Doc>(collection: string): Promise<T[]> {
    const rows = this.read((g) => (g.table(collection)?.all.all() as string[] | undefined) ?? MISSING, []);
    return rows.map((json) => JSON.parse(json) as T);
  }

  /** Collections holding at least one document. */
  async collections(): Promise<string[]> {
    // Listing finds no error to notice a switch by, so the live generation is read first.
    if (this.pinned === undefined) this.core.refreshLive();
    return this.read(
      (g) => g.tableNames().filter((collection) => g.table(collection)?.hasRows.get() === 1),
      [],
    );
  }

  /** Deletes rows but keeps tables and their indexes for the rebuild that follows. */
  async clear(): Promise<void> {
    this.write((g) => {
      for (const collection of g.tableNames()) g.table(collection)?.clear.run();
      g.checkpoints()?.clear.run();
    });
  }

  async close(): Promise<void> {
    if (this.pinned === undefined) await this.core.close();
  }

  async generation(): Promise<number> {
    return this.core.refreshLive();
  }

  async createGeneration(): Promise<number> {
    return this.core.write(() => {
      const live = this.core.refreshLive();
      const generation = Math.max(this.core.readMeta('allocated') ?? 1, live) + 1;
      this.core.writeMeta('allocated', generation);
      return generation;
    });
  }

  forGeneration(generation: number): SqliteReadStore {
    return new SqliteReadStore({ core: this.core, generation });
  }

  /** Commits on a thread of its own when the compiled worker is at hand (see CommitThread). */
  forRebuild(generation: number): ReadStore {
    const reads = this.forGeneration(generation);
    return CommitThread.open(this.core.path, generation, reads) ?? reads;
  }

  async copyCollections(to: number, collections: string[], checkpoint: string): Promise<number> {
    return this.write(
      (from) => {
        const target = this.core.generation(to);
        for (const collection of collections) {
          target.createTable(collection).clear.run();
          const source = from.table(collection);
          if (!source) continue;
          target.ensureColumns(collection, source.fields);
          // Columns only the target has are computed from the documents, as when a column is added.
          const sql = from.fieldSql(collection);
          const fields = target.table(collection)?.fields ?? [];
          const columns = ['id', 'doc', ...fields.map(columnName)];
          const values = ['id', 'doc', ...fields.map(sql)];
          this.core.db.exec(
            `INSERT INTO ${target.tableName(collection)} (${columns.join(', ')}) SELECT ${values.join(', ')} FROM ${from.tableName(collection)}`,
          );
        }
        return from.checkpoint(checkpoint);
      },
      [to],
    );
  }

  async promote(generation: number, options: { checkpoint?: string } = {}): Promise<boolean> {
    const promoted = this.core.write(() => {
      const live = this.core.refreshLive();
      if (generation === live) return true;
      if (generation < live)
        throw new Error(`read-store generation ${generation} is older than the live generation ${live}`);
      const from = this.core.generation(live);
      const to = this.core.generation(generation);
      const name = options.checkpoint;
      if (name !== undefined && to.checkpoint(name) < from.checkpoint(name)) return false;
      // Checkpoints the new generation has not set (reactions', which do not depend on the views) carry over.
      to.createCheckpoints();
      if (from.checkpoints()) {
        this.core.db.exec(
          `INSERT OR IGNORE INTO ${to.checkpointsTable} (name, position) SELECT name, position FROM ${from.checkpointsTable}`,
        );
      }
      this.core.writeMeta('live', generation);
      this.core.retireGenerations((g) => g < generation);
      return true;
    });
    if (promoted) {
      this.core.adopt(generation);
      this.core.dropRetired();
    }
    return promoted;
  }

  /** The query plan lines of the statements `find` runs, to check index use. */
  explain(collection: string, query: FindQuery): string[] {
    const read = pageRead(collection, query);
    return this.read((g) => {
      if (!g.table(collection)) return MISSING;
      return this.segments(g, read).flatMap((segment) => {
        const sql = this.segmentStatement(g, read, segment).source;
        const args = [...read.where.args, ...segmentArgs(segment), 1];
        const rows = this.core.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as { detail: string }[];
        return rows.map((row) => row.detail);
      });
    }, []);
  }

  /**
   * Runs a read on this handle's generation. A live handle whose table turns out missing, or whose
   * cached statement finds it dropped, re-reads the live generation and runs the read again there.
   */
  private read<T>(op: (g: Generation) => T | Missing, whenMissing: T): T {
    for (let attempt = 1; ; attempt++) {
      const number = this.pinned ?? this.core.live;
      try {
        const result = op(this.core.generation(number));
        if (result !== MISSING) return result;
        if (this.pinned !== undefined || this.core.refreshLive() === number || attempt >= 3)
          return whenMissing;
      } catch (error) {
        if (!isMissingTable(error) || attempt >= 3) throw error;
        this.core.forget(number);
        if (this.pinned === undefined) this.core.refreshLive();
      }
    }
  }

  /**
   * Runs `body` in a write transaction on the generation this handle writes: the live one as read
   * inside the transaction, or the pinned one unless it has been retired.
   */
  private write<T>(body: (g: Generation) => T, alsoTouches: number[] = []): T {
    let touched: number | undefined;
    try {
      return this.core.write(() => {
        const live = this.core.refreshLive();
        if (this.pinned !== undefined && this.pinned < live)
          throw new Error(`read-store generation ${this.pinned} was retired (generation ${live} is live)`);
        const g = this.core.generation(this.pinned ?? live);
        touched = g.number;
        return body(g);
      });
    } catch (error) {
      // A rollback undoes tables created in the transaction, whose statements are now cached.
      if (!(error instanceof CheckpointConflictError)) {
        for (const number of [...(touched === undefined ? [] : [touched]), ...alsoTouches])
          this.core.forget(number);
      }
      throw error;
    }
  }

  private commitWith(checkpoint: CheckpointWrite | undefined, apply: (g: Generation) => void): void {
    this.write((g) => {
      if (checkpoint?.expected !== undefined) {
        const stored = g.checkpoint(checkpoint.name);
        if (stored !== checkpoint.expected)
          throw new CheckpointConflictError(checkpoint.name, checkpoint.expected, stored);
      }
      apply(g);
      if (checkpoint) g.createCheckpoints().put.run(checkpoint.name, checkpoint.position);
    });
  }

  private applyWrite(g: Generation, { collection, id, doc, created }: Write): void {
    if (doc === null) {
      g.table(collection)?.delete.run(id);
      return;
    }
    const stored = doc.id === id ? doc : { ...doc, id };
    this.putRow(g, collection, id, JSON.stringify(stored), created, (field) => stored[field]);
  }

  /** Stores a document as `json`, with its column values read by `fieldValue`. */
  private putRow(
    g: Generation,
    collection: string,
    id: string,
    json: string,
    created: true | undefined,
    fieldValue: (field: string) => unknown,
  ): void {
    const table = g.createTable(collection);
    const values = table.fields.map((field) => columnValue(fieldValue(field)));
    if (!table.indexed) {
      table.upsert.run(id, json, ...values);
      return;
    }
    // A document its writer knows to be new (an audit entry) has no stored columns to compare with.
    const current = created ? undefined : (table.columnsOf.get(id) as Bind[] | undefined);
    if (!current) {
      table.insert.run(id, json, ...values);
      return;
    }
    // Only the columns whose value changed are set: SQLite rewrites the index entries of every column an
    // UPDATE sets, and most updates (a new title) change no indexed field.
    const changed = values.flatMap((value, i) => (sameValue(value, current[i]) ? [] : [i]));
    table.update(changed).run(json, ...changed.map((i) => values[i]), id);
  }

  /** The segments a page reads (see segmentsFor), without the `id` tie-breaker where a unique index allows. */
  private segments(g: Generation, { collection, where, orderBy, direction, after }: PageRead): Segment[] {
    const orders = g.table(collection)?.uniqueOrders;
    const fields = where.terms.map((term) => term.field);
    const unique =
      orders !== undefined &&
      orders.size > 0 &&
      !where.terms.some((term) => term.isNull) &&
      orders.has(uniqueOrderKey(fields, orderBy));
    return segmentsFor(orderBy, direction, after, unique);
  }

  /** Reads segments in order until `need` rows are collected. */
  private fetch(g: Generation, read: PageRead, need: number): string[] {
    const rows: string[] = [];
    for (const segment of this.segments(g, read)) {
      const stmt = this.segmentStatement(g, read, segment);
      rows.push(...(stmt.all(...read.where.args, ...segmentArgs(segment), need - rows.length) as string[]));
      if (rows.length >= need) break;
    }
    return rows;
  }

  private segmentStatement(
    g: Generation,
    { collection, where, orderBy, direction }: PageRead,
    segment: Segment,
  ): Stmt {
    const unique = segment.kind === 'values' && segment.unique;
    const shape = [
      collection,
      where.key,
      orderBy,
      direction,
      segment.kind,
      segmentHasCursor(segment),
      unique,
    ];
    return g.shape(`find\u0000${shape.join('\u0000')}`, () => {
      const sql = g.fieldSql(collection);
      const { terms, order } = segmentSql(segment, orderBy, direction, sql);
      const filter = whereSql([...whereTerms(where, sql), ...terms]);
      return `SELECT doc FROM ${g.tableName(collection)}${filter} ORDER BY ${order} LIMIT ?`;
    });
  }

  private countStatement(g: Generation, collection: string, where: WhereClause): Stmt {
    return g.shape(`count\u0000${collection}\u0000${where.key}`, () => {
      const filter = whereSql(whereTerms(where, g.fieldSql(collection)));
      return `SELECT count(*) FROM ${g.tableName(collection)}${filter}`;
    });
  }
}
