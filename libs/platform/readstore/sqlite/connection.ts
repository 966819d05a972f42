import type Database from 'better-sqlite3';
import { openWalDatabase } from '../../sqlite/open-database';
import { startCheckpoints } from '../../sqlite/wal-checkpointer';
import { Generations, META_SCHEMA } from './generations';
import type { Bind, Stmt } from './schema';

/**
 * Page cache of a views connection (KiB): large, so a batch's dirty index pages stay in memory until its
 * commit; with the 2 MB default a big batch spills them to the WAL again and again (random ids touch
 * pages all over).
 */
const PAGE_CACHE = -65_536;
/** Page cache while an index is built: SQLite's default (see `buildIndex`). */
const SORT_CACHE = -2_000;

type Transaction = Database.Transaction<(body: () => unknown) => unknown>;

/** A views file's connection: transactions, schema lookups and generations, shared by a store's handles. */
export class SqliteCore {
  readonly db: Database.Database;
  readonly generations: Generations;
  private readonly writeTransaction: Transaction;
  private readonly readTransaction: Transaction;
  private readonly tableExistsStmt: Stmt;
  private readonly indexNamesStmt: Stmt;
  private readonly indexExistsStmt: Stmt;
  private readonly tableNamesStmt: Stmt;
  private readonly schemaVersionStmt: Stmt;
  private schemaVersion: unknown;
  private readonly stopCheckpoints: () => Promise<void>;

  constructor(
    readonly path: string,
    checkpointedElsewhere = false,
  ) {
    // Views are derived from the log: a commit lost to a power failure (NORMAL skips the fsync per
    // commit in WAL mode) leaves the file consistent with an older checkpoint, and the projector replays
    // from there. A process crash loses nothing either way. The event store keeps FULL.
    this.db = openWalDatabase(path, { synchronous: 'NORMAL', schema: META_SCHEMA });
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
    this.schemaVersionStmt = this.prepare('PRAGMA schema_version').pluck();
    this.schemaVersion = this.schemaVersionStmt.get();
    this.writeTransaction = this.db.transaction((body: () => unknown) => {
      this.followSchema();
      return body();
    });
    this.readTransaction = this.db.transaction((body: () => unknown) => {
      this.generations.followOthers();
      return body();
    });
    this.generations = new Generations(this);
    // Left by a process that stopped before it had dropped them all.
    this.generations.dropRetired();
  }

  /**
   * Forgets every cached statement once the schema changed (another connection may have added field
   * columns): writes must fill every column, and queries should use the new ones.
   */
  followSchema(): void {
    const version = this.schemaVersionStmt.get();
    if (version === this.schemaVersion) return;
    this.schemaVersion = version;
    this.generations.forgetAll();
  }

  /** A write transaction taken up front (BEGIN IMMEDIATE), so reading `meta` in it cannot go stale. */
  write<T>(body: () => T): T {
    return this.writeTransaction.immediate(body) as T;
  }

  /**
   * A read transaction (deferred BEGIN) that first follows a promote by another connection: the check
   * and `body` then read one snapshot (see generations.ts).
   */
  read<T>(body: () => T): T {
    return this.readTransaction(body) as T;
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

  prepare(sql: string): Stmt {
    return this.db.prepare<Bind[], unknown>(sql);
  }

  /** Closes the connection once the retired tables are dropped. */
  async close(): Promise<void> {
    if (!this.db.open) return;
    await this.generations.dropped();
    if (!this.db.open) return;
    this.generations.forgetAll();
    this.db.close();
    await this.stopCheckpoints();
  }
}
