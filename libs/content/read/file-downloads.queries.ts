import { BLOB_STORE, type BlobStore, isBlobKey } from '@app/platform/blobs/blob-store.port';
import { notFound } from '@app/platform/domain/decider';
import { arg, Remote } from '@app/platform/rpc/remote-method';
import { Inject, Injectable } from '@nestjs/common';

/** Uploaded files' bytes (`insert_files` with base64), by blob key (`fileDownloadPath`). */
@Injectable()
export class FileDownloads {
  constructor(@Inject(BLOB_STORE) private readonly blobs: BlobStore) {}

  /** The file's bytes, base64 (they cross the internal transport as JSON), and their content type. */
  @Remote(arg.text('key', /^[0-9a-f]{64}$/, 'a file key'))
  async file(key: string): Promise<{ content: string; contentType: string }> {
    const blob = isBlobKey(key) ? await this.blobs.get(key) : undefined;
    if (!blob) throw notFound('File not found');
    return { content: blob.bytes.toString('base64'), contentType: blob.contentType };
  }
}
