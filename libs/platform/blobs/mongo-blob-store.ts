import { type Db, GridFSBucket, MongoClient, type ObjectId } from 'mongodb';
import {
  assertBlobName,
  assertContentType,
  type BlobStore,
  blobKey,
  isBlobKey,
  isBlobName,
  type StoredBlob,
} from './blob-store.port';

export interface MongoBlobStoreOptions {
  url: string;
  /** Defaults to the database named in the URL (or the driver's default). */
  database?: string;
  /** The GridFS bucket: collections `<bucket>.files` and `<bucket>.chunks` (default `blobs`). */
  bucket?: string;
}

const DURABLE = { w: 'majority', journal: true } as const;

interface FileDoc {
  _id: ObjectId;
  uploadDate?: Date;
  metadata?: { contentType?: string };
}

/**
 * Blobs in a GridFS bucket, through the driver's GridFSBucket: chunk inserts, then the file document,
 * plus the bucket's two indexes, which FerretDB 1.24 serves too. A blob is a file named by its key with
 * an id of its own, so two processes putting the same bytes at once never collide (each writes a whole
 * copy; either is the blob) and chunks a crash left without their file document are never read: a file
 * document is written only after all its chunks. Renditions are files of a second bucket
 * (`<bucket>.renditions`), named by their name, so no key finds them; the newest of one name is read,
 * and they are collected by their upload date. Writes wait for the journal of a majority.
 */
export class MongoBlobStore implements BlobStore {
  private readonly client: MongoClient;
  private readonly db: Db;
  private readonly bucket: GridFSBucket;
  private readonly bucketName: string;
  private readonly renditions: GridFSBucket;

  constructor(options: MongoBlobStoreOptions) {
    this.client = new MongoClient(options.url);
    this.db = this.client.db(options.database);
    this.bucketName = options.bucket ?? 'blobs';
    this.bucket = new GridFSBucket(this.db, {
      bucketName: this.bucketName,
      writeConcern: DURABLE,
    });
    this.renditions = new GridFSBucket(this.db, {
      bucketName: `${this.bucketName}.renditions`,
      writeConcern: DURABLE,
    });
  }

  async put(bytes: Uint8Array, contentType: string): Promise<string> {
    assertContentType(contentType);
    const key = blobKey(bytes);
    if (await this.file(key)) return key;
    await upload(this.bucket, key, bytes, contentType);
    return key;
  }

  async get(key: string): Promise<StoredBlob | undefined> {
    const file = await this.file(key);
    return file ? download(this.bucket, file) : undefined;
  }

  async has(key: string): Promise<boolean> {
    return (await this.file(key)) !== undefined;
  }

  async putRendition(name: string, bytes: Uint8Array, contentType: string): Promise<void> {
    assertBlobName(name);
    assertContentType(contentType);
    if (await this.newestRendition(name)) return;
    await upload(this.renditions, name, bytes, contentType);
  }

  async rendition(name: string): Promise<StoredBlob | undefined> {
    if (!isBlobName(name)) return undefined;
    const file = await this.newestRendition(name);
    if (!file) return undefined;
    try {
      return await download(this.renditions, file);
    } catch (error) {
      // Collected while it was read (its file document first, then its chunks): as if never put.
      if (!(await this.renditionFiles().findOne({ _id: file._id }))) return undefined;
      throw error;
    }
  }

  async dropRenditionsBefore(cutoff: Date | number): Promise<number> {
    const before = new Date(cutoff);
    const old = await this.renditionFiles()
      .find({ uploadDate: { $lt: before } }, { projection: { _id: 1 } })
      .toArray();
    let dropped = 0;
    // The file document first: a rendition found is whole (one being read as it goes is handled there).
    for (const { _id } of old) {
      const { deletedCount } = await this.renditionFiles().deleteOne({ _id }, { writeConcern: DURABLE });
      await this.db
        .collection(`${this.bucketName}.renditions.chunks`)
        .deleteMany({ files_id: _id }, { writeConcern: DURABLE });
      dropped += deletedCount;
    }
    return dropped;
  }

  close(): Promise<void> {
    return this.client.close();
  }

  private renditionFiles() {
    return this.db.collection<FileDoc>(`${this.bucketName}.renditions.files`);
  }

  private async newestRendition(name: string): Promise<FileDoc | undefined> {
    const found = await this.renditionFiles().findOne(
      { filename: name },
      { sort: { uploadDate: -1 }, projection: { _id: 1, metadata: 1 } },
    );
    return found ?? undefined;
  }

  private async file(key: string): Promise<FileDoc | undefined> {
    if (!isBlobKey(key)) return undefined;
    const found = await this.db
      .collection<FileDoc>(`${this.bucketName}.files`)
      .findOne({ filename: key }, { projection: { _id: 1, metadata: 1 } });
    return found ?? undefined;
  }
}

function upload(bucket: GridFSBucket, filename: string, bytes: Uint8Array, contentType: string) {
  return new Promise<void>((resolve, reject) => {
    const stream = bucket.openUploadStream(filename, { metadata: { contentType } });
    stream.once('finish', () => resolve());
    stream.once('error', reject);
    stream.end(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  });
}

async function download(bucket: GridFSBucket, file: FileDoc): Promise<StoredBlob> {
  const chunks: Buffer[] = [];
  for await (const chunk of bucket.openDownloadStream(file._id)) chunks.push(chunk as Buffer);
  return {
    bytes: Buffer.concat(chunks),
    contentType: file.metadata?.contentType ?? 'application/octet-stream',
  };
}
