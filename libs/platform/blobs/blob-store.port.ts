import { createHash } from 'node:crypto';

export interface StoredBlob {
  bytes: Buffer;
  contentType: string;
}

/**
 * Immutable bytes under their SHA-256 (64 lowercase hex digits): uploaded files. Unlike the views, what
 * is stored here is not rebuilt from the log: events name blobs by key, so a blob is stored (durably)
 * before the event that names it is appended.
 *
 * Beside them, renditions: bytes made from other data (a rendered export) kept under a name for a while
 * and collected by age, as they can be made again. They are never blobs: no key reaches them, so what a
 * signed link serves cannot be downloaded by its hash as an uploaded file is.
 */
export interface BlobStore {
  /**
   * Stores `bytes` and answers their key. Once it resolves the blob survives a crash of the process
   * or the machine. Idempotent: the same bytes again store nothing, and keep the first content type.
   */
  put(bytes: Uint8Array, contentType: string): Promise<string>;
  /** The blob under `key`, whole; undefined for a key nothing was stored under (or no key at all). */
  get(key: string): Promise<StoredBlob | undefined>;
  has(key: string): Promise<boolean>;
  /**
   * Keeps `bytes` as the rendition `name` (`isBlobName`), durably once it resolves. What a name holds
   * is a pure function of the name, so every put of one name carries the same bytes: one already there
   * stays, and two at once may leave either.
   */
  putRendition(name: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** The rendition `name`, whole; undefined when there is none (never put, or collected). */
  rendition(name: string): Promise<StoredBlob | undefined>;
  /** Removes the renditions put before `cutoff`; answers how many. */
  dropRenditionsBefore(cutoff: Date | number): Promise<number>;
  close(): Promise<void>;
}

export const BLOB_STORE = Symbol('BLOB_STORE');

const KEY = /^[0-9a-f]{64}$/;

export const blobKey = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

export const isBlobKey = (value: string): boolean => KEY.test(value);

/** Letters, digits, `.`, `_` and `-`, not dots alone: a file name and a document id everywhere. */
const NAME = /^(?!\.+$)[A-Za-z0-9._-]{1,200}$/;

export const isBlobName = (value: string): boolean => NAME.test(value);

export function assertBlobName(name: string): void {
  if (!isBlobName(name))
    throw new Error(`A blob name must be 1 to 200 letters, digits, ".", "_" or "-": ${JSON.stringify(name)}`);
}

/** Printable ASCII, as an HTTP header value carries it; what a blob is served with. */
const CONTENT_TYPE = /^[\x20-\x7e]{1,255}$/;

/** Refuses a content type no answer could carry; adapters check it before storing anything. */
export function assertContentType(contentType: string): void {
  if (!CONTENT_TYPE.test(contentType))
    throw new Error(`A blob's content type must be 1 to 255 printable ASCII characters`);
}
