import { createHash } from 'node:crypto';

export interface StoredBlob {
  bytes: Buffer;
  contentType: string;
}

/**
 * Immutable bytes under their SHA-256 (64 lowercase hex digits): uploaded files, rendered PDFs; and
 * names set once for some of them. Unlike the views, what is stored here is not rebuilt from the log:
 * events name blobs by key, so a blob is stored (durably) before the event that names it is appended.
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
   * Gives a stored blob a name, for what is known before its bytes are (a rendered export, named by what
   * it renders). A name is set once: naming it again, with any key, changes nothing. Durable once it
   * resolves; refused for a blob that is not stored, so a name never leads to nothing.
   */
  name(name: string, key: string): Promise<void>;
  /** The key of the blob `name` names; undefined when nothing has that name. */
  named(name: string): Promise<string | undefined>;
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
