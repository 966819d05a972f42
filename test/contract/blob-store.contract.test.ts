import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type BlobStore, FileBlobStore, MongoBlobStore } from '@app/platform/blobs';
import { MongoClient } from 'mongodb';
import { describeIf, MONGO_WIRE } from '../support/describe-if';
import { removeDir, tempDir } from '../support/temp-dir';

interface Backend {
  /** A store over fresh, empty storage; `reopen` opens another store over the same storage. */
  open(): Promise<{ store: BlobStore; reopen: () => BlobStore }>;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function blobStoreContract(name: string, backend: Backend): void {
  describe(`BlobStore contract: ${name}`, () => {
    let store: BlobStore;
    let reopen: () => BlobStore;
    const opened: BlobStore[] = [];

    beforeEach(async () => {
      ({ store, reopen } = await backend.open());
      opened.push(store);
    });

    afterEach(async () => {
      for (const s of opened.splice(0)) await s.close();
    });

    it('stores bytes under their SHA-256 and reads them back with their content type', async () => {
      const bytes = Buffer.from('%PDF-1.7 hello');
      const key = await store.put(bytes, 'application/pdf');
      expect(key).toBe(sha256(bytes));
      expect(await store.has(key)).toBe(true);
      const blob = await store.get(key);
      expect(blob?.contentType).toBe('application/pdf');
      expect(Buffer.compare(blob?.bytes ?? Buffer.alloc(0), bytes)).toBe(0);
    });

    it('answers undefined and false for a key nothing was stored under, or no key at all', async () => {
      const absent = sha256(Buffer.from('never stored'));
      expect(await store.get(absent)).toBeUndefined();
      expect(await store.has(absent)).toBe(false);
      for (const notAKey of ['', '../../etc/passwd', absent.toUpperCase(), `${absent}0`]) {
        expect(await store.get(notAKey)).toBeUndefined();
        expect(await store.has(notAKey)).toBe(false);
      }
    });

    it('keeps empty blobs and bytes of every value, several chunks long', async () => {
      const empty = await store.put(new Uint8Array(0), 'text/plain');
      expect((await store.get(empty))?.bytes.length).toBe(0);
      // Larger than a GridFS chunk (255 KiB), not a multiple of it; every byte value.
      const big = randomBytes(700 * 1024 + 3);
      const key = await store.put(big, 'application/octet-stream');
      expect(Buffer.compare((await store.get(key))?.bytes ?? Buffer.alloc(0), big)).toBe(0);
    });

    it('is idempotent: the same bytes again, also at once, store one blob that keeps its first type', async () => {
      const bytes = randomBytes(4096);
      const keys = await Promise.all([
        store.put(bytes, 'image/png'),
        store.put(bytes, 'image/png'),
        store.put(bytes, 'image/png'),
      ]);
      expect(new Set(keys)).toEqual(new Set([sha256(bytes)]));
      expect(await store.put(bytes, 'text/plain')).toBe(keys[0]);
      expect((await store.get(keys[0]))?.contentType).toBe('image/png');
      expect(Buffer.compare((await store.get(keys[0]))?.bytes ?? Buffer.alloc(0), bytes)).toBe(0);
    });

    it('keeps apart blobs of different bytes', async () => {
      const a = await store.put(Buffer.from('a'), 'text/plain');
      const b = await store.put(Buffer.from('b'), 'text/markdown');
      expect(a).not.toBe(b);
      expect((await store.get(a))?.bytes.toString()).toBe('a');
      expect(await store.get(b)).toMatchObject({ contentType: 'text/markdown' });
    });

    it('serves what another store over the same storage put (another process, a restart)', async () => {
      const key = await store.put(Buffer.from('shared'), 'text/plain; charset=utf-8');
      const other = reopen();
      opened.push(other);
      expect(await other.get(key)).toEqual({
        bytes: Buffer.from('shared'),
        contentType: 'text/plain; charset=utf-8',
      });
    });

    it('keeps a rendition under its name, which another store over the same storage serves', async () => {
      const bytes = randomBytes(300 * 1024 + 7);
      expect(await store.rendition('pdf-a_1')).toBeUndefined();
      await Promise.all([
        store.putRendition('pdf-a_1', bytes, 'application/pdf'),
        store.putRendition('pdf-a_1', bytes, 'application/pdf'),
      ]);
      await store.putRendition('pdf-a_1', bytes, 'application/pdf');
      const other = reopen();
      opened.push(other);
      for (const s of [store, other]) {
        const kept = await s.rendition('pdf-a_1');
        expect(kept?.contentType).toBe('application/pdf');
        expect(Buffer.compare(kept?.bytes ?? Buffer.alloc(0), bytes)).toBe(0);
      }
      expect(await other.rendition('pdf-a_2')).toBeUndefined();
    });

    it('serves no rendition as a blob: its SHA-256 is no key', async () => {
      const bytes = Buffer.from('%PDF-1.7 rendered');
      await store.putRendition('pdf-b', bytes, 'application/pdf');
      expect(await store.get(sha256(bytes))).toBeUndefined();
      expect(await store.has(sha256(bytes))).toBe(false);
      // The same bytes uploaded are a blob of their own, and stay one when the rendition is collected.
      const key = await store.put(bytes, 'application/pdf');
      expect(await store.dropRenditionsBefore(Date.now() + 60_000)).toBe(1);
      expect(await store.rendition('pdf-b')).toBeUndefined();
      expect((await store.get(key))?.bytes).toEqual(bytes);
    });

    it('collects the renditions put before a time and keeps the later ones, for every store', async () => {
      await store.putRendition('old-1', Buffer.from('one'), 'application/pdf');
      await store.putRendition('old-2', Buffer.from('two'), 'application/pdf');
      // File times are coarser than the clock (a kernel tick): a margin either side of the cutoff.
      await sleep(40);
      const cutoff = new Date();
      await sleep(40);
      await store.putRendition('new', Buffer.from('three'), 'application/pdf');
      const other = reopen();
      opened.push(other);
      expect(await other.dropRenditionsBefore(cutoff)).toBe(2);
      expect(await store.dropRenditionsBefore(cutoff.getTime())).toBe(0);
      for (const s of [store, other]) {
        expect(await s.rendition('old-1')).toBeUndefined();
        expect(await s.rendition('old-2')).toBeUndefined();
        expect((await s.rendition('new'))?.bytes.toString()).toBe('three');
      }
      // Collected, a name is put anew.
      await store.putRendition('old-1', Buffer.from('one'), 'application/pdf');
      expect((await other.rendition('old-1'))?.bytes.toString()).toBe('one');
    });

    it('refuses names that are not names, and content types no answer could carry', async () => {
      for (const bad of ['', '..', '../escape', 'a/b', 'x'.repeat(201), 'naïve']) {
        await expect(store.putRendition(bad, Buffer.from('x'), 'application/pdf')).rejects.toThrow(
          /blob name/,
        );
        expect(await store.rendition(bad)).toBeUndefined();
      }
      await expect(store.putRendition('typed', Buffer.from('x'), 'text/plain\nx: 1')).rejects.toThrow(
        /content type/,
      );
      expect(await store.rendition('typed')).toBeUndefined();
    });

    it('refuses, storing nothing, a content type no answer could carry', async () => {
      const bytes = Buffer.from('typed badly');
      for (const type of ['', 'text/plain\nx-injected: 1', 'x'.repeat(256), 'image/pngé']) {
        await expect(store.put(bytes, type)).rejects.toThrow(/content type/);
      }
      expect(await store.has(sha256(bytes))).toBe(false);
    });
  });
}

describe('FileBlobStore', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) removeDir(dir);
  });

  blobStoreContract('files', {
    async open() {
      const dir = tempDir('blobs-');
      dirs.push(dir);
      return {
        store: new FileBlobStore(join(dir, 'blobs')),
        reopen: () => new FileBlobStore(join(dir, 'blobs')),
      };
    },
  });

  it('leaves no temporary file behind, and removes those a crash left an hour ago', async () => {
    const dir = tempDir('blobs-');
    dirs.push(dir);
    const root = join(dir, 'blobs');
    const first = new FileBlobStore(root);
    await first.put(Buffer.from('one'), 'text/plain');
    expect(readdirSync(join(root, 'tmp'))).toEqual([]);
    // As a crash between the write and the rename leaves it: an old one, and one being written now.
    writeFileSync(join(root, 'tmp', 'old'), 'half');
    const old = new Date(Date.now() - 2 * 60 * 60 * 1000);
    utimesSync(join(root, 'tmp', 'old'), old, old);
    writeFileSync(join(root, 'tmp', 'young'), 'in progress');
    const second = new FileBlobStore(root);
    await second.put(Buffer.from('two'), 'text/plain');
    expect(readdirSync(join(root, 'tmp'))).toEqual(['young']);
    await first.close();
    await second.close();
  });
});

const mongoUrl = process.env.MONGO_URL;
const mongoDatabase = `blob_store_contract_${Date.now()}_${randomUUID().slice(0, 8)}`;
let buckets = 0;

describeIf(Boolean(mongoUrl), 'MongoBlobStore contract suite (MONGO_URL is not set)')(
  `MongoBlobStore ${MONGO_WIRE}`,
  () => {
    afterAll(async () => {
      const client = new MongoClient(mongoUrl as string);
      try {
        await client.db(mongoDatabase).dropDatabase();
      } finally {
        await client.close();
      }
    });

    blobStoreContract('GridFS', {
      async open() {
        const options = { url: mongoUrl as string, database: mongoDatabase, bucket: `blobs${++buckets}` };
        return { store: new MongoBlobStore(options), reopen: () => new MongoBlobStore(options) };
      },
    });
  },
);
