import { promises as fs, mkdtempSync, rmSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileBlobStore } from './file-blob-store';

describe('FileBlobStore durability', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'blob-spec-'));
  });
  afterEach(() => {
    jest.restoreAllMocks();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Records the file system steps of the store, each named with the path it touched, below `dir`. */
  function recordSteps(): string[] {
    const steps: string[] = [];
    const rel = (path: unknown) => String(path).slice(dir.length + 1);
    const open = fs.open.bind(fs);
    jest.spyOn(fs, 'open').mockImplementation(async (path, flags, mode) => {
      const handle: FileHandle = await open(path, flags, mode);
      const sync = handle.sync.bind(handle);
      const writeFile = handle.writeFile.bind(handle);
      handle.sync = async () => {
        steps.push(`sync ${rel(path)}`);
        return sync();
      };
      handle.writeFile = (async (data: Parameters<FileHandle['writeFile']>[0]) => {
        steps.push(`write ${rel(path)}`);
        return writeFile(data);
      }) as FileHandle['writeFile'];
      return handle;
    });
    const rename = fs.rename.bind(fs);
    jest.spyOn(fs, 'rename').mockImplementation(async (from, to) => {
      steps.push(`rename ${rel(from)} -> ${rel(to)}`);
      return rename(from, to);
    });
    return steps;
  }

  it('writes a temporary file, syncs it, renames it into place and syncs its directory before answering', async () => {
    const store = new FileBlobStore(join(dir, 'blobs'));
    await store.put(Buffer.from('warm-up'), 'text/plain');
    const steps = recordSteps();
    const key = await store.put(Buffer.from('durable'), 'text/plain');
    const temporary = steps[1].replace(/^write /, '');
    expect(temporary).toMatch(new RegExp(`^blobs/tmp/${key}\\.[0-9a-f]+$`));
    // 'warm-up' and 'durable' differ in their first two hex digits: the key's directory is new, and
    // its entry is made durable first.
    expect(steps).toEqual([
      'sync blobs',
      `write ${temporary}`,
      `sync ${temporary}`,
      `rename ${temporary} -> blobs/${key.slice(0, 2)}/${key}`,
      `sync blobs/${key.slice(0, 2)}`,
    ]);
  });

  it('syncs the directory of a blob already there before answering, in case its rename is not yet durable', async () => {
    const store = new FileBlobStore(join(dir, 'blobs'));
    const key = await store.put(Buffer.from('again'), 'text/plain');
    const steps = recordSteps();
    expect(await store.put(Buffer.from('again'), 'text/plain')).toBe(key);
    expect(steps).toEqual([`sync blobs/${key.slice(0, 2)}`]);
  });
});
