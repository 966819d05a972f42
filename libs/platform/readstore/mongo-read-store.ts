import {
  type AnyBulkWriteOperation,
  type Collection,
  type Db,
  type Filter,
  MongoClient,
  type Sort,
} from 'mongodb';
import {
  assertStorable,
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

export interface MongoReadStoreOptions {
  url: string;
  /** Defaults to the database named in the URL (or the driver's default). */
  database?: string;
  /** Prepended to every collection this store owns; lets several stores share a database. */
  collectionPrefix?: string;
  /**
   * How long `promote` keeps the generations it retires before dropping them: other processes re-read
   * the live generation at most every FOLLOW_MS, and a read they started on the old one must end.
   */
  retireAfterMs?: number;
}

/** Handles re-read the live generation when it is older than this: at most one extra query per 50 ms. */
const FOLLOW_MS = 50;
const RETIRE_AFTER_MS = 2000;
/** Documents a copy of a collection reads and inserts at a time. */
const COPY_BATCH = 1000;
const META_ID = 'generation';
const NAMESPACE_NOT_FOUND = 26;

/** A read-model document as stored: its id is the Mongo `_id`. */
interface StoredDoc {
  _id: string;
  [field: string]: unknown;
}

/** A checkpoint as generations before checkpoints moved into the meta document kept them. */
interface LegacyCheckpoint {
  _id: string;
  position: number;
}

/**
 * The live generation, the highest one handed out by `createGeneration`, and every generation's
 * checkpoints (`checkpoints.g<n>.<name>`). Checkpoints live here, in one document with `live`, so that a
 * promote and a projector's commit are each one compare-and-set on the same document: without a
 * multi-document transaction, that is what orders them. `version` moves with every checkpoint write, so
 * a promote fails if any checkpoint moved since it read them.
 */
interface StoredMeta {
  _id: string;
  live: number;
  allocated: number;
  version?: number;
  checkpoints?: Record<string, Record<string, number>>;
}

/** A checkpoint name as a field name: `.` and `$` would be paths and operators, so they are escaped. */
const checkpointKey = (name: string) =>
  name.replace(/[%.$]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const generationKey = (generation: number) => `g${generation}`;
const checkpointPath = (generation: number, name: string) =>
  `checkpoints.${generationKey(generation)}.${checkpointKey(name)}`;

function checkpointsOf(meta: StoredMeta, generation: number): Record<string, number> {
  return meta.checkpoints?.[generationKey(generation)] ?? {};
}

function storedCheckpoint(meta: StoredMeta, generation: number, name: string): number {
  return checkpointsOf(meta, generation)[checkpointKey(name)] ?? 0;
}

/** Same rule as the SQLite adapter, so a query valid on one backend is valid on the other. */
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function mongoField(field: string): string {
  if (field === 'id') return '_id';
  if (!FIELD_NAME.test(field)) throw new Error(`Unsupported field name for a read-store query: ${field}`);
  return field;
}

/** `{ field: null }` in Mongo already matches a missing or null field. */
function whereFilter(where: Record<string, Scalar> = {}): Filter<StoredDoc> {
  const filter: Filter<StoredDoc> = {};
  for (const [field, value] of Object.entries(where)) filter[mongoField(field)] = value ?? null;
  return filter;
}

/** Scalar sort values' types in the order both stores sort them (after null): BSON's, and SQLite's too. */
const SORTED_TYPES = ['number', 'string', 'bool'] as const;

/**
 * Documents strictly after the cursor in (sort value, _id) order. Missing/null values sort first
 * ascending and last descending, as in Mongo's own sort, so they are added or excluded explicitly.
 * A comparison matches only values of its own type (`$gt: 5` no string), so the types sorted after the
 * cursor's (before it, descending) are added by type.
 */
function keysetFilter(orderBy: string, direction: 'asc' | 'desc', after: { value: Scalar; id: string }) {
  const op = direction === 'asc' ? '$gt' : '$lt';
  if (orderBy === 'id') return { _id: { [op]: after.id } };
  const field = mongoField(orderBy);
  const value = after.value ?? null;
  if (value === null) {
    const inNulls = { [field]: null, _id: { [op]: after.id } };
    return direction === 'asc' ? { $or: [inNulls, { [field]: { $ne: null } }] } : inNulls;
  }
  const branches: Filter<StoredDoc>[] = [
    { [field]: { [op]: value } },
    { [field]: value, _id: { [op]: after.id } },
  ];
  const type = SORTED_TYPES.indexOf(
    typeof value === 'boolean' ? 'bool' : (typeof value as 'number' | 'string'),
  );
  const beyond = direction === 'asc' ? SORTED_TYPES.slice(type + 1) : SORTED_TYPES.slice(0, type);
  if (beyond.length > 0) branches.push({ [field]: { $type: [...beyond] } });
  if (direction === 'desc') branches.push({ [field]: null });
  return { $or: branches };
}

function toStored(doc: Doc): Omit<StoredDoc, '_id'> {
  const { id: _id, ...fields } = doc;
  return fields;
}

function fromStored<T extends Doc>(stored: StoredDoc): T {
  const { _id, ...fields } = stored;
  return { id: _id, ...fields } as T;
}

function writeOperation({ id, doc }: Write): AnyBulkWriteOperation<StoredDoc> {
  if (doc === null) return { deleteOne: { filter: { _id: id } } };
  return { replaceOne: { filter: { _id: id }, replacement: toStored(doc), upsert: true } };
}

/** The client, the names and the live generation as last read, shared by a store's handles. */
class MongoCore {
  live?: number;
  private checkedAt = 0;
  private refreshing?: Promise<number>;

  constructor(
    readonly client: MongoClient,
    readonly db: Db,
    readonly prefix: string,
    readonly retireAfterMs: number,
  ) {}

  /**
   * Generation 1 has no generation part in its names, so databases from before generations keep working.
   * `checkpoints` is where checkpoints were kept before they moved into the meta document (`prepare`).
   */
  names(generation: number): { docs: string; checkpoints: string } {
    const base = generation === 1 ? this.prefix : `${this.prefix}g${generation}.`;
    return { docs: `${base}docs.`, checkpoints: `${base}checkpoints` };
  }

  /** The generation a collection of this store belongs to; undefined for others and for the meta collection. */
  generationOf(name: string): number | undefined {
    if (!name.startsWith(this.prefix)) return undefined;
    const rest = name.slice(this.prefix.length);
    const numbered = /^g(\d+)\.(docs\.|checkpoints$)/.exec(rest);
    if (numbered) return Number(numbered[1]);
    return rest.startsWith('docs.') || rest === 'checkpoints' ? 1 : undefined;
  }

  meta(): Collection<StoredMeta> {
    return this.db.collection<StoredMeta>(`${this.prefix}meta`);
  }

  /** The live generation; re-read from the database when older than FOLLOW_MS, or always when `fresh`. */
  liveGeneration(fresh = false): number | Promise<number> {
    if (!fresh && this.live !== undefined && Date.now() - this.checkedAt < FOLLOW_MS) return this.live;
    if (fresh) return this.readMeta().then(() => this.live ?? 1);
    this.refreshing ??= this.readMeta()
      .then(() => this.live ?? 1)
      .finally(() => {
        this.refreshing = undefined;
      });
    return this.refreshing;
  }

  adopt(live: number): void {
    this.live = Math.max(this.live ?? 1, live);
    this.checkedAt = Date.now();
  }

  /** Settles once the generations retired so far are dropped, or their drop failed. */
  retiring: Promise<void> = Promise.resolve();

  /**
   * Runs `drop` after the grace period. A failure leaves the old collections for the next
   * promote, which drops every generation below the one it makes live.
   */
  retire(drop: () => Promise<void>): void {
    const after = new Promise((resolve) => setTimeout(resolve, this.retireAfterMs));
    this.retiring = Promise.all([this.retiring, after.then(drop)]).then(
      () => undefined,
      () => undefined,
    );
  }

  private prepared?: Promise<void>;

  /** Creates the meta document once per store, and moves checkpoints kept the old way into it. */
  prepare(): Promise<void> {
    this.prepared ??= this.createMeta().catch((error: unknown) => {
      this.prepared = undefined;
      throw error;
    });
    return this.prepared;
  }

  /** The meta document as stored now; adopts its live generation. */
  async readMeta(): Promise<StoredMeta> {
    await this.prepare();
    const started = Date.now();
    const meta = await this.meta().findOne({ _id: META_ID });
    if (!meta) throw new Error('read-store meta document vanished');
    // Generations only go up: a read that started before this process promoted must not undo it.
    this.live = Math.max(this.live ?? 1, meta.live);
    this.checkedAt = started;
    return meta;
  }

  private async createMeta(): Promise<void> {
    await this.meta().updateOne(
      { _id: META_ID },
      { $setOnInsert: { live: 1, allocated: 1, version: 0 } },
      { upsert: true },
    );
    const meta = await this.meta().findOne({ _id: META_ID });
    if (!meta || meta.checkpoints !== undefined) return;
    const legacy = this.db.collection<LegacyCheckpoint>(this.names(meta.live).checkpoints);
    const moved: Record<string, number> = {};
    for (const { _id, position } of await legacy.find({}).toArray()) moved[checkpointKey(_id)] = position;
    // Only the first process to get here moves them; the old collection goes with its generation.
    await this.meta().updateOne(
      { _id: META_ID, checkpoints: { $exists: false } },
      { $set: { checkpoints: { [generationKey(meta.live)]: moved } } },
    );
  }
}

/**
 * Read models on MongoDB: one Mongo collection per read-model collection (`<prefix>docs.<name>`).
 * Generations after the first put `g<n>.` after the prefix; `<prefix>meta` holds the live one and every
 * generation's checkpoints (`StoredMeta`).
 *
 * `commit` is not atomic across collections (that would need a replica-set transaction): writes are
 * applied first and the checkpoint last, so a crash leaves the checkpoint behind the documents and
 * replay re-applies events that projections must treat idempotently (see `Doc._pos`).
 *
 * A checkpoint write and a promote are each one conditional update of the meta document, so they are
 * ordered: a commit whose generation was retired before its checkpoint moved fails (its documents may
 * have reached the old generation, which nothing reads once handles follow, within FOLLOW_MS), and its
 * projector continues from the new generation's checkpoint. `promote` drops the old generation only
 * after `retireAfterMs`, so reads started on it end first.
 */
export class MongoReadStore implements ReadStore {
  private readonly core: MongoCore;
  /** Set on handles from `forGeneration`: the generation they use whatever is live. */
  private readonly pinned?: number;

  /** The driver connects on first use; `connect` does so eagerly to fail fast on a bad URL. */
  constructor(options: MongoReadStoreOptions | { core: MongoCore; generation: number }) {
    if ('core' in options) {
      this.core = options.core;
      this.pinned = options.generation;
      return;
    }
    // Fields set to undefined are left out, as the embedded store (JSON) leaves them out, not stored as null.
    const client = new MongoClient(options.url, { ignoreUndefined: true });
    this.core = new MongoCore(
      client,
      client.db(options.database),
      options.collectionPrefix ?? 'readstore.',
      options.retireAfterMs ?? RETIRE_AFTER_MS,
    );
  }

  static async connect(options: MongoReadStoreOptions): Promise<MongoReadStore> {
    const store = new MongoReadStore(options);
    await store.core.client.connect();
    return store;
  }

  /** Indexes `fields` in order, then `_id` as the tie-breaker (equality fields first, sort field last). */
  async ensureIndexes(indexes: IndexSpec[], options: { deferred?: boolean } = {}): Promise<void> {
    // Documents need no preparation: a deferred call has nothing to do before the indexes.
    if (options.deferred) return;
    const generation = await this.target(true);
    for (const { collection, fields } of indexes) {
      const keys: Record<string, 1> = {};
      for (const field of fields) keys[mongoField(field)] = 1;
      keys._id = 1;
      await this.docs(generation, collection).createIndex(keys);
    }
  }

  async get<T extends Doc = Doc>(collection: string, id: string): Promise<T | null> {
    const stored = await this.docs(await this.target(), collection).findOne({ _id: id });
    return stored ? fromStored<T>(stored) : null;
  }

  async find<T extends Doc = Doc>(collection: string, query: FindQuery): Promise<Page<T>> {
    const { orderBy = 'id', direction = 'asc', after, limit } = query;
    const where = whereFilter(query.where);
    const docs = this.docs(await this.target(), collection);
    // Mongo reads `limit: 0` as "no limit", so an empty page only counts.
    if (limit <= 0) return { items: [], count: await docs.countDocuments(where) };
    const filter = after ? { $and: [where, keysetFilter(orderBy, direction, after)] } : where;
    const dir = direction === 'asc' ? 1 : -1;
    const sort: Sort = orderBy === 'id' ? { _id: dir } : { [mongoField(orderBy)]: dir, _id: dir };
    const [count, stored] = await Promise.all([
      docs.countDocuments(where),
      docs.find(filter, { sort, limit: limit + 1 }).toArray(),
    ]);
    const items = stored.slice(0, limit).map((doc) => fromStored<T>(doc));
    if (stored.length <= limit) return { items, count };
    const last = items[items.length - 1];
    const value = orderBy === 'id' ? last.id : ((last[orderBy] ?? null) as Scalar);
    return { items, count, next: { value, id: last.id } };
  }

  async commit(writes: Write[], checkpoint?: CheckpointWrite): Promise<void> {
    assertStorable(writes);
    const meta = await this.core.readMeta();
    const generation = this.pinned ?? meta.live;
    if (this.pinned !== undefined && this.pinned < meta.live) throw retired(this.pinned, meta.live);
    // Checked before writing too, so that a conflicting batch does not write documents it will not own.
    if (checkpoint?.expected !== undefined) this.checkExpected(meta, generation, checkpoint);
    const byCollection = new Map<string, AnyBulkWriteOperation<StoredDoc>[]>();
    for (const write of writes) {
      const operations = byCollection.get(write.collection) ?? [];
      operations.push(writeOperation(write));
      byCollection.set(write.collection, operations);
    }
    // Each collection's writes stay in order; different collections cannot affect each other. Every
    // one has settled before a failure is reported, so a retry never races a write still on its way.
    const outcomes = await Promise.allSettled(
      [...byCollection].map(([collection, operations]) =>
        this.docs(generation, collection).bulkWrite(operations, { ordered: true }),
      ),
    );
    const failed = outcomes.find((outcome) => outcome.status === 'rejected');
    if (failed) throw failed.reason;
    if (checkpoint) await this.setCheckpoint(generation, checkpoint);
  }

  private checkExpected(meta: StoredMeta, generation: number, checkpoint: CheckpointWrite): void {
    const { name, expected, generation: known } = checkpoint;
    const stored = storedCheckpoint(meta, generation, name);
    if (stored !== expected || (known !== undefined && known !== meta.live))
      throw new CheckpointConflictError(name, expected ?? stored, stored);
  }

  /**
   * Moves the checkpoint, on the meta document, only while the generation written is still live (or not
   * yet retired, for a pinned handle) and, with `expected`, only from that position: a compare-and-set
   * that a promote cannot slip between. Without `expected` (a reaction's checkpoint, independent of the
   * views), it lands in whichever generation is live when it is written.
   */
  private async setCheckpoint(generation: number, checkpoint: CheckpointWrite): Promise<void> {
    const { name, position, expected } = checkpoint;
    for (let target = generation; ; ) {
      const path = checkpointPath(target, name);
      const filter: Filter<StoredMeta> = {
        _id: META_ID,
        live: this.pinned === undefined ? target : { $lte: target },
      };
      // A checkpoint at 0 may never have been written.
      if (expected !== undefined) filter[path] = expected === 0 ? { $in: [0, null] } : expected;
      const set = await this.core
        .meta()
        .updateOne(filter, { $set: { [path]: position }, $inc: { version: 1 } });
      if (set.matchedCount === 1) return;
      const meta = await this.core.readMeta();
      if (this.pinned !== undefined && this.pinned < meta.live) throw retired(this.pinned, meta.live);
      if (expected !== undefined)
        throw new CheckpointConflictError(name, expected, storedCheckpoint(meta, meta.live, name));
      target = meta.live;
    }
  }

  async getCheckpoint(name: string): Promise<number> {
    const meta = await this.core.readMeta();
    return storedCheckpoint(meta, this.pinned ?? meta.live, name);
  }

  async all<T extends Doc = Doc>(collection: string): Promise<T[]> {
    const stored = await this.docs(await this.target(), collection)
      .find({}, { sort: { _id: 1 } })
      .toArray();
    return stored.map((doc) => fromStored<T>(doc));
  }

  /** Collections holding at least one document (Mongo keeps emptied collections around). */
  async collections(): Promise<string[]> {
    const generation = await this.target(true);
    const prefix = this.core.names(generation).docs;
    const names = (await this.collectionNames())
      .filter((name) => name.startsWith(prefix))
      .map((name) => name.slice(prefix.length));
    const nonEmpty = await Promise.all(
      names.map(async (name) =>
        (await this.docs(generation, name).countDocuments({}, { limit: 1 })) > 0 ? name : null,
      ),
    );
    return nonEmpty.filter((name): name is string => name !== null).sort();
  }

  /** Deletes documents rather than dropping collections, so indexes survive a rebuild. */
  async clear(): Promise<void> {
    const generation = await this.target(true);
    const names = (await this.collectionNames()).filter(
      (name) => this.core.generationOf(name) === generation,
    );
    await Promise.all(names.map((name) => this.core.db.collection(name).deleteMany({})));
    await this.core
      .meta()
      .updateOne(
        { _id: META_ID },
        { $unset: { [`checkpoints.${generationKey(generation)}`]: '' }, $inc: { version: 1 } },
      );
  }

  /** Waits for the retirement of generations this store promoted away from (so a CLI rebuild finishes it). */
  async close(): Promise<void> {
    if (this.pinned !== undefined) return;
    await this.core.retiring;
    await this.core.client.close();
  }

  async generation(): Promise<number> {
    return this.core.liveGeneration(true);
  }

  /**
   * Allocates above both the last allocated and the live generation by compare-and-set on `allocated`
   * (plain CRUD: an update with an aggregation pipeline would do it in one step, but FerretDB and some
   * MongoDB-compatible services do not support those).
   */
  async createGeneration(): Promise<number> {
    for (;;) {
      const meta = await this.core.readMeta();
      const next = Math.max(meta.allocated, meta.live) + 1;
      const filter = { _id: META_ID, allocated: meta.allocated };
      const set = await this.core.meta().updateOne(filter, { $set: { allocated: next } });
      if (set.modifiedCount === 1) return next;
    }
  }

  forGeneration(generation: number): ReadStore {
    return new MongoReadStore({ core: this.core, generation });
  }

  /** The driver already overlaps a commit's round trips with the caller's work. */
  forRebuild(generation: number): ReadStore {
    return this.forGeneration(generation);
  }

  async copyCollections(to: number, collections: string[], checkpoint: string): Promise<number> {
    const meta = await this.core.readMeta();
    const from = this.pinned ?? meta.live;
    const position = storedCheckpoint(meta, from, checkpoint);
    for (const collection of collections) {
      const target = this.docs(to, collection);
      await target.deleteMany({});
      // Read and insert in batches rather than `$out`, which not every MongoDB-wire server has.
      let batch: StoredDoc[] = [];
      for await (const doc of this.docs(from, collection).find({}, { batchSize: COPY_BATCH })) {
        batch.push(doc);
        if (batch.length === COPY_BATCH) {
          await target.insertMany(batch, { ordered: false });
          batch = [];
        }
      }
      if (batch.length > 0) await target.insertMany(batch, { ordered: false });
    }
    return position;
  }

  /**
   * One compare-and-set on the meta document: it switches only if no checkpoint moved since they were
   * compared (`version`), so a live commit is either before the switch (and compared) or fails after it.
   */
  async promote(generation: number, options: { checkpoint?: string } = {}): Promise<boolean> {
    const meta = await this.core.readMeta();
    const live = meta.live;
    if (generation === live) return true;
    if (generation < live)
      throw new Error(`read-store generation ${generation} is older than the live generation ${live}`);
    const name = options.checkpoint;
    if (name !== undefined && storedCheckpoint(meta, generation, name) < storedCheckpoint(meta, live, name))
      return false;
    // Checkpoints the new generation has not set (reactions', which do not depend on the views) carry over.
    const carried: Record<string, number> = {};
    const next = checkpointsOf(meta, generation);
    for (const [key, position] of Object.entries(checkpointsOf(meta, live))) {
      if (!(key in next)) carried[`checkpoints.${generationKey(generation)}.${key}`] = position;
    }
    const switched = await this.core
      .meta()
      .updateOne(
        { _id: META_ID, live, version: meta.version ?? 0 },
        { $set: { live: generation, ...carried }, $inc: { version: 1 } },
      );
    if (switched.modifiedCount === 0) return false;
    this.core.adopt(generation);
    // In the background: a projector in this process waits for the promote, not for the grace period.
    this.core.retire(() => this.dropGenerationsBelow(generation));
    return true;
  }

  /** Drops every collection and checkpoint of the generations below `generation`. */
  private async dropGenerationsBelow(generation: number): Promise<void> {
    const meta = await this.core.readMeta();
    const unset: Record<string, ''> = {};
    for (const key of Object.keys(meta.checkpoints ?? {}))
      if (Number(key.slice(1)) < generation) unset[`checkpoints.${key}`] = '';
    if (Object.keys(unset).length > 0)
      await this.core.meta().updateOne({ _id: META_ID }, { $unset: unset, $inc: { version: 1 } });
    const retired = (await this.collectionNames()).filter(
      (n) => (this.core.generationOf(n) ?? generation) < generation,
    );
    await Promise.all(
      retired.map((n) =>
        this.core.db
          .collection(n)
          .drop()
          .catch((error: { code?: number }) => {
            // Another process retiring the same generation dropped it first.
            if (error.code !== NAMESPACE_NOT_FOUND) throw error;
          }),
      ),
    );
  }

  /** The generation this handle uses: its own, or the live one (re-read from the database when `fresh`). */
  private async target(fresh = false): Promise<number> {
    if (this.pinned !== undefined) return this.pinned;
    return this.core.liveGeneration(fresh);
  }

  private async collectionNames(): Promise<string[]> {
    const infos = await this.core.db.listCollections({}, { nameOnly: true }).toArray();
    return infos.map((info) => info.name);
  }

  private docs(generation: number, collection: string): Collection<StoredDoc> {
    return this.core.db.collection<StoredDoc>(`${this.core.names(generation).docs}${collection}`);
  }
}

function retired(pinned: number, live: number): Error {
  return new Error(`read-store generation ${pinned} was retired (generation ${live} is live)`);
}
