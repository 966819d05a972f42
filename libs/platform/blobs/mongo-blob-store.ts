import { type Collection, type Db, GridFSBucket, MongoClient, type ObjectId } from 'mongodb';
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

const DUPLICATE_KEY = 11000;
const DURABLE = { w: 'majority', journal: true } as const;

interface NameDoc {
  _id: string;
  key: string;
}

interface FileDoc {
  _id: ObjectId;
  metadata?: { contentType?: string };
}

/**
 * Blobs in a GridFS bucket, through the driver's GridFSBucket: chunk inserts, then the file document,
 * plus the bucket's two indexes, which FerretDB 1.24 serves too. A blob is a file named by its key with
 * an id of its own, so two processes putting the same bytes at once never collide (each writes a whole
 * copy; either is the blob) and chunks a crash left without their file document are never read: a file
 * document is written only after all its chunks. Names are documents of `<bucket>.names`, inserted
 * once (a unique `_id`, the one write every such server does atomically). Writes wait for the journal of
 * a majority.
 */
export class MongoBlobStore implements BlobStore {
  private readonly client: MongoClient;
  private readonly db: Db;
  private readonly bucket: GridFSBucket;
  private readonly bucketName: string;
  private readonly names: Collection<NameDoc>;

  constructor(options: MongoBlobStoreOptions) {
    this.client = new MongoClient(options.url);
    this.db = this.client.db(options.database);
    this.bucketName = options.bucket ?? 'blobs';
    this.bucket = new GridFSBucket(this.db, {
      bucketName: this.bucketName,
      writeConcern: DURABLE,
    });
    this.names = this.db.collection<NameDoc>(`${this.bucketName}.names`);
  }

  async put(bytes: Uint8Array, contentType: string): Promise<string> {
    assertContentType(contentType);
    const key = blobKey(bytes);
    if (await this.file(key)) return key;
    await new Promise<void>((resolve, reject) => {
      const upload = this.bucket.openUploadStream(key, { metadata: { contentType } });
      upload.once('finish', () => resolve());
      upload.once('error', reject);
      upload.end(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    });
    return key;
  }

  async get(key: string): Promise<StoredBlob | undefined> {
    const file = await this.file(key);
    if (!file) return undefined;
    const chunks: Buffer[] = [];
    for await (const chunk of this.bucket.openDownloadStream(file._id)) chunks.push(chunk as Buffer);
    return {
      bytes: Buffer.concat(chunks),
      contentType: file.metadata?.contentType ?? 'application/octet-stream',
    };
  }

  async has(key: string): Promise<boolean> {
    return (await this.file(key)) !== undefined;
  }

  async name(name: string, key: string): Promise<void> {
    assertBlobName(name);
    if (!(await this.has(key))) throw new Error(`Cannot name ${name}: no blob ${key} is stored`);
    try {
      await this.names.insertOne({ _id: name, key }, { writeConcern: DURABLE });
    } catch (error) {
      if ((error as { code?: number }).code !== DUPLICATE_KEY) throw error;
    }
  }

  async named(name: string): Promise<string | undefined> {
    if (!isBlobName(name)) return undefined;
    return (await this.names.findOne({ _id: name }))?.key;
  }

  close(): Promise<void> {
    return this.client.close();
  }

  private async file(key: string): Promise<FileDoc | undefined> {
    if (!isBlobKey(key)) return undefined;
    const found = await this.db
      .collection<FileDoc>(`${this.bucketName}.files`)
      .findOne({ filename: key }, { projection: { _id: 1, metadata: 1 } });
    return found ?? undefined;
  }
}
