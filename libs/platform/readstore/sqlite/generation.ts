import type { SqliteCore } from './connection';
import { uniqueOrderKey } from './paging';
import {
  CHECKPOINTS,
  columnName,
  DOC_JSON,
  DOCS,
  type FieldSql,
  generationPrefix,
  jsonFieldExpr,
  type Stmt,
  sqlIdentifier,
} from './schema';

/** The statements every known collection needs, prepared once its table exists. */
export interface TableStatements {
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

export interface CheckpointStatements {
  get: Stmt;
  put: Stmt;
  clear: Stmt;
}

/** One generation's tables and the statements prepared on them, shared by every handle of a store. */
export class Generation {
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

  /** `clustered`: a WITHOUT ROWID table (see `IndexSpec.clustered`), for small documents only. */
  createTable(collection: string, options: { clustered?: boolean } = {}): TableStatements {
    const known = this.tables.get(collection);
    if (known) return known;
    this.core.db.exec(
      `CREATE TABLE IF NOT EXISTS ${this.tableName(collection)} (id TEXT PRIMARY KEY, doc TEXT NOT NULL)${options.clustered ? ' WITHOUT ROWID' : ''}`,
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
      get: this.core.prepare(`SELECT ${DOC_JSON} FROM ${table} WHERE id = ?`).pluck(),
      all: this.core.prepare(`SELECT ${DOC_JSON} FROM ${table} ORDER BY id`).pluck(),
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
