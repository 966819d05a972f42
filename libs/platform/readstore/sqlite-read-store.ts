import {
  assertStorable,
  CheckpointConflictError,
  type CheckpointWrite,
  type Doc,
  type FindQuery,
  type IndexSpec,
  type Page,
  type ReadStore,
  type Write,
} from './read-store.port';
import { SqliteCore } from './sqlite/connection';
import type { Generation } from './sqlite/generation';
import { explainPage, pageRead, readPage } from './sqlite/paging';
import {
  type Bind,
  checkField,
  columnName,
  columnValue,
  sameValue,
  sqlIdentifier,
  storedJson,
} from './sqlite/schema';

/*
 * The SQLite views, by concern under sqlite/: schema.ts (names and column values), paging.ts (what
 * `find` runs), generation.ts (one generation's tables and statements), generations.ts (`meta`, the
 * live generation, promote and the drop of retired tables, and how other connections follow a
 * promote), connection.ts (the connection and its transactions).
 */

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
    const specs = indexes.map(({ collection, fields, unique = false, clustered = false }) => {
      if (clustered && (fields.length !== 1 || fields[0] !== 'id'))
        throw new Error(`${collection}: only the id orders a clustered collection`);
      const columns = fields.map((field) => (field === 'id' ? 'id' : columnName(field)));
      if (!fields.includes('id') && !unique) columns.push('id');
      return { collection, fields, unique, clustered, columns };
    });
    this.write((g) => {
      for (const { collection, fields, unique, clustered, columns } of specs) {
        // The table is its own index on id; one created before the collection was clustered stays as it is.
        if (clustered) {
          g.createTable(collection, { clustered });
          continue;
        }
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
      return table ? ((table.get.get(id) as string | undefined) ?? null) : null;
    });
    return json === null ? null : (JSON.parse(json) as T);
  }

  async find<T extends Doc = Doc>(collection: string, query: FindQuery): Promise<Page<T>> {
    const read = pageRead(collection, query);
    if (read.orderBy !== 'id') checkField(read.orderBy);
    return this.read(
      (g): Page<T> => (g.table(collection) ? readPage<T>(g, read, query.limit) : { items: [], count: 0 }),
      true,
    );
  }

  async commit(writes: Write[], checkpoint?: CheckpointWrite): Promise<void> {
    assertStorable(writes);
    this.commitWith(checkpoint, (g) => {
      for (const write of writes) this.applyWrite(g, write);
    });
  }

  async getCheckpoint(name: string): Promise<number> {
    return this.read((g) => {
      const checkpoints = g.checkpoints();
      return checkpoints ? ((checkpoints.get.get(name) as number | undefined) ?? 0) : 0;
    });
  }

  async all<T extends Doc = Doc>(collection: string): Promise<T[]> {
    const rows = this.read((g) => (g.table(collection)?.all.all() as string[] | undefined) ?? []);
    return rows.map((json) => JSON.parse(json) as T);
  }

  /** Collections holding at least one document. */
  async collections(): Promise<string[]> {
    return this.read((g) => g.tableNames().filter((collection) => g.table(collection)?.hasRows.get() === 1));
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
    return this.core.generations.refreshLive();
  }

  async createGeneration(): Promise<number> {
    return this.core.generations.allocate();
  }

  forGeneration(generation: number): SqliteReadStore {
    return new SqliteReadStore({ core: this.core, generation });
  }

  /**
   * The generation's own handle. Committing on a thread of its own was measured to buy about 2% of a
   * rebuild (BENCHMARKS.md, "What each rebuild mechanism buys") and was removed.
   */
  forRebuild(generation: number): ReadStore {
    return this.forGeneration(generation);
  }

  async copyCollections(to: number, collections: string[], checkpoint: string): Promise<number> {
    return this.write(
      (from) => {
        const target = this.core.generations.get(to);
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
    return this.core.generations.promote(generation, options.checkpoint);
  }

  /** The query plan lines of the statements `find` runs, to check index use. */
  explain(collection: string, query: FindQuery): string[] {
    const read = pageRead(collection, query);
    return this.read((g) => (g.table(collection) ? explainPage(g, read, this.core.db) : []));
  }

  /**
   * Runs a read on this handle's generation, in a read transaction that first adopts a promote made
   * through another connection (see generations.ts); `followSchema` also follows their new columns.
   */
  private read<T>(op: (g: Generation) => T, followSchema = false): T {
    return this.core.read(() => {
      if (followSchema) this.core.followSchema();
      return op(this.core.generations.get(this.pinned ?? this.core.generations.live));
    });
  }

  /**
   * Runs `body` in a write transaction on the generation this handle writes: the live one as read
   * inside the transaction, or the pinned one unless it has been retired.
   */
  private write<T>(body: (g: Generation) => T, alsoTouches: number[] = []): T {
    let touched: number | undefined;
    try {
      return this.core.write(() => {
        const live = this.core.generations.refreshLive();
        if (this.pinned !== undefined && this.pinned < live)
          throw new Error(`read-store generation ${this.pinned} was retired (generation ${live} is live)`);
        const g = this.core.generations.get(this.pinned ?? live);
        touched = g.number;
        return body(g);
      });
    } catch (error) {
      // A rollback undoes tables created in the transaction, whose statements are now cached.
      if (!(error instanceof CheckpointConflictError)) {
        for (const number of [...(touched === undefined ? [] : [touched]), ...alsoTouches])
          this.core.generations.forget(number);
      }
      throw error;
    }
  }

  private commitWith(checkpoint: CheckpointWrite | undefined, apply: (g: Generation) => void): void {
    this.write((g) => {
      if (checkpoint?.expected !== undefined) {
        const stored = g.checkpoint(checkpoint.name);
        const moved = checkpoint.generation !== undefined && checkpoint.generation !== g.number;
        if (moved || stored !== checkpoint.expected)
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
    this.putRow(g, collection, id, storedJson(doc), created, (field) => doc[field]);
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
}
