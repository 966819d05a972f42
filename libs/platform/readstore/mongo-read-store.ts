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
  idRange,
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
const DUPLICATE_KEY = 11000;
const NAMESPACE_NOT_FOUND = 26;

/** A read-model document as stored: its id is the Mongo `_id`. */
interface StoredDoc {
  _id: string;
  [field: string]: unknown;
}

/** A generation's checkpoint: one document each, written by one writer (its projector or reaction). */
interface StoredCheckpoint {
  _id: string;
  position: number;
}

/**
 * A claimed move of a checkpoint out of a position (`claimId`): inserted once, since `_id` is unique, the
 * one step every MongoDB-wire server does atomically. FerretDB 1.x applies an update by reading and
 * writing back the document, so a filtered update is no compare-and-set between concurrent writers; a
 * live commit and a promote that must exclude each other both claim instead.
 */
interface StoredClaim {
  _id: string;
  generation: number;
  name: string;
  to: number;
}

/** The live generation, and the highest one handed out by `createGeneration` (a hint: see there). */
interface StoredMeta {
  _id: string;
  live: number;
  allocated: number;
}

const claimId = (generation: number, name: string, from: number) => `${generation}|${from}|${name}`;

const isDuplicateKey = (error: unknown) => (error as { code?: number }).code === DUPLICATE_KEY;

/** Same rule as the SQLite adapter, so a query valid on one backend is valid on the other. */
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function mongoField(field: string): string {
  if (field === 'id') return '_id';
  if (!FIELD_NAME.test(field)) throw new Error(`Unsupported field name for a read-store query: ${field}`);
  return field;
}

/** `{ field: null }` in Mongo already matches a missing or null field. */
function whereFilter(where: Record<string, Scalar> = {}, idPrefix?: string): Filter<StoredDoc> {
  const filter: Filter<StoredDoc> = {};
  for (const [field, value] of Object.entries(where)) filter[mongoField(field)] = value ?? null;
  if (idPrefix !== undefined) {
    // Strings compare by their UTF-8 bytes, as SQLite's do: the same range.
    const { from, to } = idRange(idPrefix);
    const range = { $gte: from, $lt: to };
    if (filter._id === undefined) filter._id = range;
    else filter.$and = [{ _id: range }];
  }
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

  /** Generation 1 has no generation part in its names, so databases from before generations keep working. */
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

  claims(): Collection<StoredClaim> {
    return this.db.collection<StoredClaim>(`${this.prefix}claims`);
  }

  /** One document per generation number handed out (`createGeneration`). */
  allocations(): Collection<{ _id: number }> {
    return this.db.collection<{ _id: number }>(`${this.prefix}allocations`);
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

  /** Creates the meta document once per store. */
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
    try {
      await this.meta().updateOne(
        { _id: META_ID },
        { $setOnInsert: { live: 1, allocated: 1 } },
        { upsert: true },
      );
    } catch (error) {
      // Another process created it at the same moment (FerretDB does not retry such an upsert itself).
      if (!isDuplicateKey(error)) throw error;
    }
  }
}

/**
 * Read models on MongoDB: one Mongo collection per read-model collection (`<prefix>docs.<name>`) and
 * checkpoints in `<prefix>checkpoints`, so no read-model collection name can collide with it.
 * Generations after the first put `g<n>.` after the prefix; `<prefix>meta` holds the live one.
 *
 * `commit` is not atomic across collections (that would need a replica-set transaction): writes are
 * applied first and the checkpoint last, so a crash leaves the checkpoint behind the documents and
 * replay re-applies events that projections must treat idempotently (see `Doc._pos`).
 *
 * Each document has one writer, since FerretDB loses one of two concurrent updates of a document. What
 * must exclude each other, a commit moving the live projector's checkpoint and a promote retiring its
 * generation, both claim the move out of the checkpoint's position (`StoredClaim`): whichever inserts
 * the claim first goes on, the other fails (a conflict for the commit, false for the promote). A commit
 * that lost to a promote may have written documents to the retired generation, which nothing reads
 * once handles follow (within FOLLOW_MS); its projector continues on the new one. `promote` drops the old
 * generation only after `retireAfterMs`, so reads started on it end first.
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
    for (const { collection, fields, clustered } of indexes) {
      // Kept by _id already.
      if (clustered) continue;
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
    const where = whereFilter(query.where, query.idPrefix);
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
    const live = await this.core.liveGeneration(true);
    const generation = this.pinned ?? live;
    if (this.pinned !== undefined && this.pinned < live) throw retired(this.pinned, live);
    if (checkpoint?.expected !== undefined) {
      // Checked before writing too, so that a conflicting batch does not write documents it will not own.
      const stored = await this.checkpointIn(generation, checkpoint.name);
      const moved = checkpoint.generation !== undefined && checkpoint.generation !== live;
      if (moved || stored !== checkpoint.expected)
        throw new CheckpointConflictError(checkpoint.name, checkpoint.expected, stored);
    }
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

  /**
   * With `expected`, claims the move out of that position first (see the class): a commit racing with
   * another writer or a promote of this generation fails with a conflict instead of both going on.
   * Claims two moves back are dropped meanwhile; the previous one stays, for a promote that read it.
   */
  private async setCheckpoint(generation: number, checkpoint: CheckpointWrite): Promise<void> {
    const { name, position, expected } = checkpoint;
    if (expected !== undefined) {
      const claim = { _id: claimId(generation, name, expected), generation, name, to: position };
      try {
        await this.core.claims().insertOne(claim);
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
        throw new CheckpointConflictError(name, expected, await this.checkpointIn(generation, name));
      }
    }
    await Promise.all([
      this.checkpoints(generation).updateOne({ _id: name }, { $set: { position } }, { upsert: true }),
      expected === undefined
        ? undefined
        : this.core.claims().deleteMany({ generation, name, to: { $lt: expected } }),
    ]);
  }

  async getCheckpoint(name: string): Promise<number> {
    return this.checkpointIn(await this.target(), name);
  }

  private async checkpointIn(generation: number, name: string): Promise<number> {
    return (await this.checkpoints(generation).findOne({ _id: name }))?.position ?? 0;
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
    await Promise.all([
      ...names.map((name) => this.core.db.collection(name).deleteMany({})),
      this.core.claims().deleteMany({ generation }),
    ]);
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
   * Allocates above both the last allocated and the live generation by inserting a document named after
   * the number: the insert that succeeds owns it (a unique `_id` is what every MongoDB-wire server
   * enforces atomically; `allocated` is only where the next search starts).
   */
  async createGeneration(): Promise<number> {
    const meta = await this.core.readMeta();
    for (let next = Math.max(meta.allocated, meta.live) + 1; ; next++) {
      try {
        await this.core.allocations().insertOne({ _id: next });
      } catch (error) {
        if (isDuplicateKey(error)) continue;
        throw error;
      }
      await this.core.meta().updateOne({ _id: META_ID }, { $max: { allocated: next } });
      return next;
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
    const from = await this.target(true);
    const position = await this.checkpointIn(from, checkpoint);
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
   * Switches `live` unless the live views are ahead of `generation`'s: it first claims the move of the
   * live generation's checkpoint out of the position compared, so that no live commit can move it
   * after the comparison (that commit fails, and its projector goes on from the new generation).
   */
  async promote(generation: number, options: { checkpoint?: string } = {}): Promise<boolean> {
    const live = await this.core.liveGeneration(true);
    if (generation === live) return true;
    if (generation < live)
      throw new Error(`read-store generation ${generation} is older than the live generation ${live}`);
    // Checkpoints the new generation has not set (reactions', which do not depend on the views) carry over.
    for (const { _id, position } of await this.checkpoints(live).find({}).toArray()) {
      if (_id === options.checkpoint) continue;
      await this.checkpoints(generation).updateOne({ _id }, { $setOnInsert: { position } }, { upsert: true });
    }
    const name = options.checkpoint;
    if (name !== undefined) {
      const current = await this.checkpointIn(live, name);
      if ((await this.checkpointIn(generation, name)) < current) return false;
      try {
        await this.core
          .claims()
          .insertOne({ _id: claimId(live, name, current), generation: live, name, to: -1 });
      } catch (error) {
        if (isDuplicateKey(error)) return false;
        throw error;
      }
      // A commit that claimed `current` and moved on before this claim was inserted: compared too early.
      if ((await this.checkpointIn(live, name)) !== current) return false;
    }
    // `live` has one writer at a time: the rebuild that won the claim.
    await this.core.meta().updateOne({ _id: META_ID }, { $set: { live: generation } });
    this.core.adopt(generation);
    // In the background: a projector in this process waits for the promote, not for the grace period.
    this.core.retire(() => this.dropGenerationsBelow(generation));
    return true;
  }

  /** Drops every collection and claim of the generations below `generation`. */
  private async dropGenerationsBelow(generation: number): Promise<void> {
    await this.core.claims().deleteMany({ generation: { $lt: generation } });
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

  private checkpoints(generation: number): Collection<StoredCheckpoint> {
    return this.core.db.collection<StoredCheckpoint>(this.core.names(generation).checkpoints);
  }
}

function retired(pinned: number, live: number): Error {
  return new Error(`read-store generation ${pinned} was retired (generation ${live} is live)`);
}
