import { canonicalJson, type Hash, hashOfJson } from './hash';
import { encodeObject, storedEntries } from './stored-objects';

export type Awaitable<T> = T | Promise<T>;

/**
 * Where immutable objects are read from: the caller's storage (a read model, a cache, memory). Whatever
 * a stored object points to is stored too, so a reader may take any stored root and walk down from it.
 * `get` may answer at once or with a promise; every reader here awaits it.
 */
export interface ObjectStore {
  get(hash: Hash): Awaitable<unknown>;
}

/** Reads an object that must exist: a missing one means the store lost part of a tree. */
export async function readObject<T>(store: ObjectStore, hash: Hash): Promise<T> {
  const value = await store.get(hash);
  if (value === undefined) throw new Error(`content object ${hash} is missing from the store`);
  return value as T;
}

/** A store in memory: for tests, and for callers that keep a space's objects at hand. */
export class MemoryObjectStore implements ObjectStore {
  private readonly objects = new Map<Hash, unknown>();

  get(hash: Hash): unknown {
    return this.objects.get(hash);
  }

  /** Keeps objects that a change created (`created` of a commit or a merge). */
  add(objects: ReadonlyMap<Hash, unknown>): void {
    for (const [hash, value] of objects) this.objects.set(hash, value);
  }

  get size(): number {
    return this.objects.size;
  }
}

/**
 * `store` seen with objects that are on their way to it (what changes decided earlier into the same
 * append created): those answer first. Without any, `store` itself.
 */
export function withStaged(store: ObjectStore, staged: readonly ReadonlyMap<Hash, unknown>[]): ObjectStore {
  if (staged.length === 0) return store;
  return {
    get(hash) {
      for (const objects of staged) {
        const value = objects.get(hash);
        if (value !== undefined) return value;
      }
      return store.get(hash);
    },
  };
}

/**
 * The objects one change writes, kept apart from the store until the caller persists them (in an
 * event, in a read model). Reads see them first, then the store.
 */
export class ObjectWriter implements ObjectStore {
  private readonly fresh = new Map<Hash, unknown>();
  /** Hashes read from the store: putting one again (a merge taking a side's page) creates nothing. */
  private readonly stored = new Set<Hash>();

  constructor(readonly store: ObjectStore) {}

  put(value: unknown): Hash {
    const hash = hashOfJson(canonicalJson(value));
    if (!this.fresh.has(hash) && !this.stored.has(hash)) this.fresh.set(hash, value);
    return hash;
  }

  get(hash: Hash): Awaitable<unknown> {
    const value = this.fresh.get(hash);
    if (value !== undefined) return value;
    const found = this.store.get(hash);
    if (found instanceof Promise) return found.then((v) => this.remember(hash, v));
    return this.remember(hash, found);
  }

  private remember(hash: Hash, value: unknown): unknown {
    if (value !== undefined) this.stored.add(hash);
    return value;
  }

  /**
   * The new objects reachable from `root`, which is what the caller must persist: objects made and then
   * replaced within the same change are left out. `references` names the hashes an object points to;
   * the walk stops at objects the store already has, since what they point to is stored too.
   */
  created(root: Hash, references: (value: unknown) => Hash[]): Map<Hash, unknown> {
    const out = new Map<Hash, unknown>();
    const pending = [root];
    for (let hash = pending.pop(); hash !== undefined; hash = pending.pop()) {
      const value = this.fresh.get(hash);
      if (value === undefined || out.has(hash)) continue;
      out.set(hash, value);
      pending.push(...references(value));
    }
    return out;
  }
}

/** The bytes a set of objects takes as canonical JSON: what persisting them costs. */
export function storedBytes(objects: ReadonlyMap<Hash, unknown>): number {
  let bytes = 0;
  for (const [hash, value] of objects) bytes += hash.length + Buffer.byteLength(canonicalJson(value));
  return bytes;
}

/**
 * The most one stored object takes in an event: a larger one is stored in parts of this size
 * (`storedEntries`), so that every event fits in an append (`MAX_APPEND_BYTES`, 1 MiB) with room left.
 */
export const OBJECT_PART_CHARS = 512 * 1024;

/**
 * What `ObjectWriter.created` gives, as events store it (`encodeObject`): by id, in the order to store
 * them, the parts of an object too large for one event before the object itself.
 */
export function serializeObjects(
  created: ReadonlyMap<Hash, unknown>,
  maxChars = OBJECT_PART_CHARS,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [hash, value] of created)
    for (const [id, stored] of storedEntries(hash, encodeObject(value), maxChars)) out[id] = stored;
  return out;
}
