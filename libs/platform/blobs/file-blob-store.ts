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
 * content type, a line feed, then the bytes; names as `names/<name>`, holding a key. A put writes a
 * temporary file, fsyncs it, renames it into place and fsyncs the directory, so a blob is whole or
 * absent after a crash and durable once `put` resolves; readers never see a partial file. Processes
 * sharing the directory may put the same blob at once: both renames land the same bytes. A name is
 * linked into place (a hard link, which fails when the name exists), so the first one set stays.
 */
export class FileBlobStore implements BlobStore {
  private readonly temporary: string;
  private readonly names: string;
  private ready: Promise<void> | undefined;

  constructor(private readonly root: string) {
    this.temporary = join(root, 'tmp');
    this.names = join(root, 'names');
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
    const temporary = join(this.temporary, `${key}.${randomBytes(6).toString('hex')}`);
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
    await syncDirectory(dir);
    return key;
  }

  async get(key: string): Promise<StoredBlob | undefined> {
    if (!isBlobKey(key)) return undefined;
    let stored: Buffer;
    try {
      stored = await fs.readFile(join(this.root, key.slice(0, 2), key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    const end = stored.indexOf(NEWLINE);
    if (end < 1) throw new Error(`Blob ${key} has no content type`);
    return { contentType: stored.subarray(0, end).toString('latin1'), bytes: stored.subarray(end + 1) };
  }

  has(key: string): Promise<boolean> {
    return isBlobKey(key) ? exists(join(this.root, key.slice(0, 2), key)) : Promise.resolve(false);
  }

  async name(name: string, key: string): Promise<void> {
    assertBlobName(name);
    if (!(await this.has(key))) throw new Error(`Cannot name ${name}: no blob ${key} is stored`);
    await this.open();
    const path = join(this.names, name);
    if (!(await exists(path))) {
      const temporary = join(this.temporary, `name.${randomBytes(6).toString('hex')}`);
      const file = await fs.open(temporary, 'wx');
      try {
        await file.writeFile(key, 'latin1');
        await file.sync();
      } finally {
        await file.close();
      }
      try {
        await fs.link(temporary, path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      } finally {
        await fs.rm(temporary, { force: true });
      }
    }
    await syncDirectory(this.names);
  }

  async named(name: string): Promise<string | undefined> {
    if (!isBlobName(name)) return undefined;
    try {
      const key = await fs.readFile(join(this.names, name), 'latin1');
      return isBlobKey(key) ? key : undefined;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async close(): Promise<void> {
    await this.ready?.catch(() => undefined);
  }

  /** Creates the directories (durably) on first use, and removes what crashes left half-written. */
  private open(): Promise<void> {
    this.ready ??= (async () => {
      const created = await fs.mkdir(this.temporary, { recursive: true });
      const namesCreated = await createDirectory(this.names);
      if (created) await syncDirectory(dirname(this.root));
      if (created || namesCreated) await syncDirectory(this.root);
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
