/** A stored read-model document. `_pos` is the log position of the last event applied to it. */
export interface Doc {
  id: string;
  _pos?: number;
  [field: string]: unknown;
}

export type Scalar = string | number | boolean | null;

declare const documentType: unique symbol;
/**
 * A read-model collection's name, typed with its documents: `get(SPACES, id)` answers a `SpaceDoc`. The
 * owning feature declares it once (`collectionName<SpaceDoc>('spaces')`); a plain string still works.
 */
export type CollectionName<T extends Doc = Doc> = string & { readonly [documentType]?: T };
export const collectionName = <T extends Doc>(name: string) => name as CollectionName<T>;

export interface FindQuery {
  /** Equality on top-level fields; `null` matches a missing or null field. */
  where?: Record<string, Scalar>;
  /**
   * Only documents whose id starts with this (see `idRange`): a range of the id order, which every store
   * seeks to, for collections whose ids are built to be read by prefix, no index declared.
   */
  idPrefix?: string;
  /** Sort field (top-level, scalar); ties broken by `id`. Default: `id`. */
  orderBy?: string;
  direction?: 'asc' | 'desc';
  /** Keyset cursor: the sort value and id of the last item of the previous page. */
  after?: { value: Scalar; id: string };
  limit: number;
}

/**
 * The ids starting with `prefix`, as a half-open range `[from, to)` of the id order: `to` is the prefix
 * with its last character one higher. That character must be ASCII (below DEL): then the range is the
 * same in every store's order (code points, UTF-8 bytes and UTF-16 units agree on it).
 */
export function idRange(prefix: string): { from: string; to: string } {
  const last = prefix.charCodeAt(prefix.length - 1);
  if (!(last < 0x7f))
    throw new Error(`an id prefix must end with an ASCII character: ${JSON.stringify(prefix)}`);
  return { from: prefix, to: `${prefix.slice(0, -1)}${String.fromCharCode(last + 1)}` };
}

export interface Page<T> {
  items: T[];
  /** Total number of documents matching `where`. */
  count: number;
  /** Cursor for the next page, absent on the last one. */
  next?: { value: Scalar; id: string };
}

export interface Write {
  collection: string;
  id: string;
  /** The whole new document, or null to delete it. */
  doc: Doc | null;
  /**
   * Set when the document was known not to be stored before this write (a projector's live batches know):
   * an adapter may then insert it without looking for a stored one.
   */
  created?: true;
  /**
   * Set when the write was made without reading the stored document (a projection's self-guarded write):
   * a cache on another thread that kept it forgets it, rather than being sent the new value to keep.
   */
  blind?: true;
}

export interface IndexSpec {
  collection: string;
  fields: string[];
  /**
   * The writer's promise that no two documents share these fields' values (none of them null), e.g. a
   * log's `(organization, sortKey)`. An adapter may then leave out the `id` tie-breaker, from the index
   * and from the order of a `find` on it: the same pages, from a smaller index. SQLite does, with a
   * UNIQUE index, so a write that breaks the promise fails there; MongoDB keeps the tie-breaker.
   */
  unique?: true;
  /**
   * With `fields: ['id']`: the collection's documents are small and read by ranges of ids (a term's
   * postings), so a store that can keeps the collection itself in id order instead of beside an index
   * on it (SQLite: a WITHOUT ROWID table, one B-tree where there were two; a write of a document then
   * changes one page of it rather than two). It applies to a collection's storage when that is created
   * (a new file, a rebuild's generation); MongoDB keeps every collection by `_id` already.
   */
  clustered?: true;
}

/** A projection's checkpoint as committed with its writes. */
export interface CheckpointWrite {
  name: string;
  position: number;
  /**
   * Compare-and-set: the commit happens only if the stored position (0 when absent) equals this;
   * otherwise it throws `CheckpointConflictError` and writes nothing. A projector passes its own idea
   * of the checkpoint, so it learns when the views moved under it (a rebuild switched generations).
   */
  expected?: number;
  /**
   * With `expected`: the generation the caller last knew to be live. The commit happens only while that
   * generation is still live; a promote made since is a conflict too, so the caller learns of a switch
   * at its first commit after it, however the switch was made (another process, another thread).
   */
  generation?: number;
}

export class CheckpointConflictError extends Error {
  constructor(
    readonly checkpoint: string,
    readonly expected: number,
    readonly actual: number,
  ) {
    super(`checkpoint ${checkpoint}: expected ${expected}, stored ${actual}`);
    this.name = 'CheckpointConflictError';
  }
}

/**
 * Read models, kept in numbered generations so that a rebuild can fill a fresh one while the live one
 * keeps answering. A store handle (what adapters' constructors return) reads and writes whichever
 * generation is live, and follows a switch made by another handle or another process. Checkpoints
 * belong to a generation.
 */
export interface ReadStore {
  /**
   * Creates the given indexes if missing. With `deferred`, only prepares what writes need (SQLite's
   * field columns) and leaves the indexes to a later call without it: a bulk load then builds each
   * index once, sorted, instead of inserting into it row by row.
   */
  ensureIndexes(indexes: IndexSpec[], options?: { deferred?: boolean }): Promise<void>;
  get<T extends Doc = Doc>(collection: CollectionName<T>, id: string): Promise<T | null>;
  find<T extends Doc = Doc>(collection: CollectionName<T>, query: FindQuery): Promise<Page<T>>;
  /** Applies writes in order, then records the checkpoint; atomically where the backend can. */
  commit(writes: Write[], checkpoint?: CheckpointWrite): Promise<void>;
  getCheckpoint(name: string): Promise<number>;
  /** Every document of a collection, in id order (for rebuild checks and exports). */
  all<T extends Doc = Doc>(collection: CollectionName<T>): Promise<T[]>;
  collections(): Promise<string[]>;
  /** Drops every document and checkpoint of this handle's generation. */
  clear(): Promise<void>;
  /** Closes the connection; on a handle from `forGeneration`, does nothing (it shares its store's). */
  close(): Promise<void>;

  /** The live generation, the one plain handles read; 1 until the first promote. */
  generation(): Promise<number>;
  /** Reserves a new, empty generation numbered above every one before it; nothing reads it until promoted. */
  createGeneration(): Promise<number>;
  /** A handle on generation `generation`, whatever is live. Shares this store's connection. */
  forGeneration(generation: number): ReadStore;
  /**
   * A handle for a rebuild to fill generation `generation` through: its writes may run apart from the
   * caller (round trips to a server) and resolve once stored, in the order made; its reads see what is
   * stored. Close it when the rebuild is done.
   */
  forRebuild(generation: number): ReadStore;
  /**
   * Copies every document of `collections` from this handle's generation into generation `to`,
   * replacing what `to` held there, and returns this generation's checkpoint `checkpoint` as of the
   * copy: from the same snapshot on SQLite; read before copying on MongoDB, so copied documents may
   * be past it (their `_pos` tells).
   */
  copyCollections(to: number, collections: string[], checkpoint: string): Promise<number>;
  /**
   * Makes `generation` live and drops the data of every older generation (soon after, in the background,
   * on SQLite and MongoDB; `close` waits for it); handles of other
   * processes follow. With `checkpoint`, only if the generation's checkpoint of that name is at or past
   * the live generation's; otherwise nothing changes and it resolves false (catch up and try again).
   * Throws if `generation` is older than the live one.
   */
  promote(generation: number, options?: { checkpoint?: string }): Promise<boolean>;
}

/** A document a MongoDB-wire server would refuse or store differently from the embedded store. */
export class UnstorableDocumentError extends Error {
  constructor(collection: string, id: string, path: string, why: string) {
    super(`read-store document ${collection}/${id} cannot be stored: ${path} ${why}`);
    this.name = 'UnstorableDocumentError';
  }
}

/**
 * Refuses, in every adapter, what not every store keeps alike: keys with `.` or a leading `$` (paths and
 * operators to MongoDB), non-finite numbers (JSON makes them null) and arrays directly in arrays
 * (FerretDB 1.x refuses them). A projection that writes one then fails on its first commit in any test,
 * not only once in production on a server that refuses it.
 */
export function assertStorable(writes: readonly Write[]): void {
  for (const { collection, id, doc } of writes) {
    if (doc === null) continue;
    const why = unstorable(doc, false);
    if (why)
      throw new UnstorableDocumentError(collection, id, why[0].replace(/^\./, '') || '(document)', why[1]);
  }
}

/** The path and reason of the first unstorable part of `value`, if any; allocates only then. */
function unstorable(value: unknown, inArray: boolean): [string, string] | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : ['', `is ${value}`];
  if (value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    if (inArray) return ['', 'is an array in an array'];
    for (let i = 0; i < value.length; i++) {
      const why = unstorable(value[i], true);
      if (why) return [`[${i}]${why[0]}`, why[1]];
    }
    return undefined;
  }
  for (const key in value) {
    const field = (value as Record<string, unknown>)[key];
    // An undefined field is not stored (see `Doc`), whatever its key.
    if (field === undefined) continue;
    if (key.includes('.') || key.charCodeAt(0) === 36)
      return [`.${key}`, 'is a key with "." or a leading "$"'];
    const why = unstorable(field, false);
    if (why) return [`.${key}${why[0]}`, why[1]];
  }
  return undefined;
}

export const READ_STORE = Symbol('READ_STORE');

/** One key for a document across collections, for in-memory maps of documents. */
export const documentKey = (collection: string, id: string): string => `${collection}\u0000${id}`;
