import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  assertBlobName,
  assertContentType,
  type BlobStore,
  blobKey,
  isBlobKey,
  isBlobName,
  type StoredBlob,
} from './blob-store.port';

/** A temporary file this old is what a crash left behind, not a write in progress (another process's too). */
const STALE_TEMPORARY_MS = 60 * 60 * 1000;
const NEWLINE = 0x0a;

/**
 * Blobs as files under a directory (DATA_DIR/blobs in standalone mode): `<key[0..2]>/<key>`, each its
 * content type, a line feed, then the bytes; renditions alike as `renditions/<name>`, collected by
 * their modification time. A put writes a temporary file, fsyncs it, renames it into place and fsyncs
 * the directory, so a file is whole or absent after a crash and durable once the put resolves; readers
 * never see a partial file. Processes sharing the directory may put the same file at once: both
 * renames land the same bytes.
 */
export class FileBlobStore implements BlobStore {
  private readonly temporary: string;
  private readonly renditions: string;
  private ready: Promise<void> | undefined;

  constructor(private readonly root: string) {
    this.temporary = join(root, 'tmp');
    this.renditions = join(root, 'renditions');
  }

  async put(bytes: Uint8Array, contentType: string): Promise<string> {
    assertContentType(contentType);
    const key = blobKey(bytes);
    await this.open();
    const dir = join(this.root, key.slice(0, 2));
    const path = join(dir, key);
    if (await exists(path)) {
      // Another put may have renamed it and not yet synced the directory: sync it before answering.
      await syncDirectory(dir);
      return key;
    }
    if (await createDirectory(dir)) await syncDirectory(this.root);
    await this.place(`${key}.${randomBytes(6).toString('hex')}`, contentType, bytes, path);
    return key;
  }

  get(key: string): Promise<StoredBlob | undefined> {
    return isBlobKey(key) ? read(join(this.root, key.slice(0, 2), key)) : Promise.resolve(undefined);
  }

  has(key: string): Promise<boolean> {
    return isBlobKey(key) ? exists(join(this.root, key.slice(0, 2), key)) : Promise.resolve(false);
  }

  async putRendition(name: string, bytes: Uint8Array, contentType: string): Promise<void> {
    assertBlobName(name);
    assertContentType(contentType);
    await this.open();
    const path = join(this.renditions, name);
    if (!(await exists(path))) {
      await this.place(`rendition.${randomBytes(6).toString('hex')}`, contentType, bytes, path);
    } else {
      // Another put may have renamed it and not yet synced the directory: sync it before answering.
      await syncDirectory(this.renditions);
    }
  }

  rendition(name: string): Promise<StoredBlob | undefined> {
    return isBlobName(name) ? read(join(this.renditions, name)) : Promise.resolve(undefined);
  }

  async dropRenditionsBefore(cutoff: Date | number): Promise<number> {
    const before = typeof cutoff === 'number' ? cutoff : cutoff.getTime();
    let names: string[];
    try {
      names = await fs.readdir(this.renditions);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      throw error;
    }
    let dropped = 0;
    for (const name of names) {
      const path = join(this.renditions, name);
      const stat = await fs.stat(path).catch(() => undefined);
      if (!stat || stat.mtimeMs >= before) continue;
      await fs.rm(path, { force: true });
      dropped += 1;
    }
    if (dropped > 0) await syncDirectory(this.renditions);
    return dropped;
  }

  async close(): Promise<void> {
    await this.ready?.catch(() => undefined);
  }

  /**
   * Writes a file as a temporary one (`temporaryName` under tmp/), syncs it, renames it to `path` and
   * syncs the directory of `path`: whole or absent after a crash, and durable once it resolves.
   */
  private async place(temporaryName: string, contentType: string, bytes: Uint8Array, path: string) {
    const temporary = join(this.temporary, temporaryName);
    const file = await fs.open(temporary, 'wx');
    try {
      await file.writeFile(Buffer.concat([Buffer.from(`${contentType}\n`, 'latin1'), bytes]));
      await file.sync();
    } finally {
      await file.close();
    }
    try {
      await fs.rename(temporary, path);
    } catch (error) {
      await fs.rm(temporary, { force: true });
      throw error;
    }
    await syncDirectory(dirname(path));
  }

  /** Creates the directories (durably) on first use, and removes what crashes left half-written. */
  private open(): Promise<void> {
    this.ready ??= (async () => {
      const created = await fs.mkdir(this.temporary, { recursive: true });
      const renditionsCreated = await createDirectory(this.renditions);
      if (created) await syncDirectory(dirname(this.root));
      if (created || renditionsCreated) await syncDirectory(this.root);
      const cutoff = Date.now() - STALE_TEMPORARY_MS;
      for (const name of await fs.readdir(this.temporary)) {
        const path = join(this.temporary, name);
        const stat = await fs.stat(path).catch(() => undefined);
        if (stat && stat.mtimeMs < cutoff) await fs.rm(path, { force: true });
      }
    })();
    // A failed start is tried again by the next put rather than remembered.
    this.ready.catch(() => {
      this.ready = undefined;
    });
    return this.ready;
  }
}

/** A file as `place` writes it: its content type, a line feed, the bytes; undefined when absent. */
async function read(path: string): Promise<StoredBlob | undefined> {
  let stored: Buffer;
  try {
    stored = await fs.readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const end = stored.indexOf(NEWLINE);
  if (end < 1) throw new Error(`${path} has no content type`);
  return { contentType: stored.subarray(0, end).toString('latin1'), bytes: stored.subarray(end + 1) };
}

async function exists(path: string): Promise<boolean> {
  try {
    await fs.access(path);
    return true;
  } catch {
    return false;
  }
}

/** Whether the directory was created now (its entry in the parent is then not yet durable). */
async function createDirectory(path: string): Promise<boolean> {
  try {
    await fs.mkdir(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** Makes the directory's entries (a rename, a new file) durable. Windows cannot open a directory. */
async function syncDirectory(path: string): Promise<void> {
  if (process.platform === 'win32') return;
  const handle = await fs.open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
