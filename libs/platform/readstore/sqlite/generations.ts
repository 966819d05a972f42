import type { SqliteCore } from './connection';
import { Generation } from './generation';
import { generationOfTable, RETIRED, type Stmt, sqlIdentifier } from './schema';

/*
 * Generations: every table and index name starts with its generation's prefix (`g<n>:`, none for
 * generation 1, so files written before generations existed are generation 1 as they are), and table
 * `meta` holds the live generation. `promote` sets `live` and renames every older generation's tables
 * out of the way (`retired:` before their names) in one transaction. `live` only grows, and only a
 * promote changes it: it is the counter by which every connection knows which tables to read.
 *
 * Other connections follow from that state, not from errors: a read runs in a read transaction that
 * first asks `PRAGMA data_version` (it changes once another connection has committed) whether to re-read
 * `meta`, and adopts a new `live` before any statement runs (`followOthers`). One transaction, because
 * in autocommit mode each statement takes a snapshot of its own: a promote landing between the check and
 * the read would leave the read's statement on renamed tables. Within one snapshot the tables match
 * `meta`: a promote committed before it is seen whole, one committed after it not at all (the read ends
 * on the old tables, which still exist there). The transaction costs a read about a microsecond. Generations
 * below `live` are exactly the retired ones, so forgetting them on adopting `live` also empties handles
 * pinned to one. Writes read `meta` inside their write transaction, so they never land in a retired
 * generation.
 *
 * Retired tables are dropped afterwards, an index or a table per transaction, in the background: a
 * drop reads every page of what it drops (about 2 s for the views of a million events here), and in the
 * switching transaction it would hold the file's write lock, and the server's commits, for all of it.
 */

/** Creates `meta` in a new file, at generation 1. */
export const META_SCHEMA = `CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
  INSERT OR IGNORE INTO meta (key, value) VALUES ('live', 1)`;

/** A connection's generations: the live one as last read, their statements, switching and retiring. */
export class Generations {
  /** The live generation as last read from `meta`. */
  live: number;
  private readonly generations = new Map<number, Generation>();
  private readonly metaGetStmt: Stmt;
  private readonly metaPutStmt: Stmt;
  private readonly dataVersionStmt: Stmt;
  /** `PRAGMA data_version` when `meta` was last followed; unset until the first read follows it. */
  private dataVersion: unknown;
  private readonly allTablesStmt: Stmt;
  private readonly nextRetiredStmt: Stmt;
  /** Settles once the retired tables found so far are dropped, or a drop failed (see `dropRetired`). */
  private dropping: Promise<void> = Promise.resolve();

  constructor(private readonly core: SqliteCore) {
    this.metaGetStmt = core.prepare('SELECT value FROM meta WHERE key = ?').pluck();
    this.metaPutStmt = core.prepare(
      'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    );
    this.dataVersionStmt = core.prepare('PRAGMA data_version').pluck();
    this.allTablesStmt = core.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").pluck();
    // Indexes first (not those SQLite makes itself, which go with their table): dropped one at a time,
    // each holds the write lock for its own pages only.
    this.nextRetiredStmt = core.prepare(
      `SELECT type, name FROM sqlite_schema
       WHERE substr(tbl_name, 1, ${RETIRED.length}) = '${RETIRED}' AND (type = 'table' OR sql IS NOT NULL)
       ORDER BY type = 'table' LIMIT 1`,
    );
    this.live = this.readMeta('live') ?? 1;
  }

  get(number: number): Generation {
    let generation = this.generations.get(number);
    if (!generation) {
      generation = new Generation(this.core, number);
      this.generations.set(number, generation);
    }
    return generation;
  }

  /** Drops cached statements of a generation, e.g. after a rolled-back transaction that created tables. */
  forget(number: number): void {
    this.generations.delete(number);
  }

  /** Drops every cached statement (the schema changed, or the connection closes). */
  forgetAll(): void {
    this.generations.clear();
  }

  /**
   * Adopts the live generation another connection promoted, if any committed since the last call: at
   * the start of a read transaction, so that what it adopts holds for the rest of that transaction.
   */
  followOthers(): void {
    const version = this.dataVersionStmt.get();
    if (version === this.dataVersion) return;
    this.dataVersion = version;
    this.refreshLive();
  }

  /** Re-reads the live generation from `meta`, forgetting the statements of the generations it retired. */
  refreshLive(): number {
    this.adopt(this.readMeta('live') ?? 1);
    return this.live;
  }

  /** A new generation's number, never handed out before, for a rebuild to fill. */
  allocate(): number {
    return this.core.write(() => {
      const live = this.refreshLive();
      const generation = Math.max(this.readMeta('allocated') ?? 1, live) + 1;
      this.writeMeta('allocated', generation);
      return generation;
    });
  }

  /**
   * Makes `generation` live, unless `checkpoint` is further in the live one: switches `meta` and retires
   * every older generation in one transaction, then drops their tables in the background.
   */
  promote(generation: number, checkpoint?: string): boolean {
    const promoted = this.core.write(() => {
      const live = this.refreshLive();
      if (generation === live) return true;
      if (generation < live)
        throw new Error(`read-store generation ${generation} is older than the live generation ${live}`);
      const from = this.get(live);
      const to = this.get(generation);
      if (checkpoint !== undefined && to.checkpoint(checkpoint) < from.checkpoint(checkpoint)) return false;
      // Checkpoints the new generation has not set (reactions', which do not depend on the views) carry over.
      to.createCheckpoints();
      if (from.checkpoints()) {
        this.core.db.exec(
          `INSERT OR IGNORE INTO ${to.checkpointsTable} (name, position) SELECT name, position FROM ${from.checkpointsTable}`,
        );
      }
      this.writeMeta('live', generation);
      this.retire((g) => g < generation);
      return true;
    });
    if (promoted) {
      this.adopt(generation);
      this.dropRetired();
    }
    return promoted;
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
          if (!this.core.db.open || !this.dropRetiredStep()) return;
        }
      })
      .catch((error: unknown) => {
        // This store has no logger; the process's warning goes to its log. Nothing is lost meanwhile.
        process.emitWarning(
          `dropping retired views tables failed, left for the next open or promote: ${error}`,
        );
      });
  }

  /** Settles once the retired tables found so far are dropped, or a drop failed. */
  dropped(): Promise<void> {
    return this.dropping;
  }

  private adopt(live: number): void {
    if (live === this.live) return;
    this.live = live;
    for (const number of this.generations.keys()) if (number < live) this.generations.delete(number);
  }

  private readMeta(key: string): number | undefined {
    return this.metaGetStmt.get(key) as number | undefined;
  }

  private writeMeta(key: string, value: number): void {
    this.metaPutStmt.run(key, value);
  }

  /** Renames every table of the generations `which` selects out of the way, for `dropRetired` (in a write). */
  private retire(which: (generation: number) => boolean): void {
    for (const name of this.allTablesStmt.all() as string[]) {
      const generation = generationOfTable(name);
      if (generation === undefined || !which(generation)) continue;
      this.core.db.exec(`ALTER TABLE ${sqlIdentifier(name)} RENAME TO ${sqlIdentifier(`${RETIRED}${name}`)}`);
    }
  }

  /** Drops one retired index, else one retired table; false once none is left. */
  private dropRetiredStep(): boolean {
    return this.core.write(() => {
      const next = this.nextRetiredStmt.get() as { type: 'index' | 'table'; name: string } | undefined;
      if (next)
        this.core.db.exec(`DROP ${next.type === 'index' ? 'INDEX' : 'TABLE'} ${sqlIdentifier(next.name)}`);
      return next !== undefined;
    });
  }
}
