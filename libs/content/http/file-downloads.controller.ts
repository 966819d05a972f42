import { Public } from '@app/platform/auth/auth.guard';
import { isBlobKey } from '@app/platform/blobs/blob-store.port';
import { notFound } from '@app/platform/domain/decider';
import { OwnShape } from '@app/platform/openapi/own-shape';
import { Controller, Get, Param, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { FileDownloads } from '../read/file-downloads.queries';

/** The `downloadURL` of an uploaded file: no token, as GitBook's; the URL is the capability. */
@Controller()
export class FileDownloadsController {
  constructor(private readonly downloads: FileDownloads) {}

  @Public()
  @Get('downloads/files/:key')
  @OwnShape("The bytes of a file uploaded as base64, at a RevisionFile's downloadURL")
  async download(@Param('key') key: string, @Res() reply: FastifyReply) {
    // A malformed key is just a key of nothing: a 404 like any other, revealing nothing.
    if (!isBlobKey(key)) throw notFound('File not found');
    const { content, contentType } = await this.downloads.file(key);
    reply
      .header('content-type', contentType)
      // Never run what was uploaded (HTML, SVG) as this origin's page, nor guess another type.
      .header('content-security-policy', 'sandbox')
      .header('x-content-type-options', 'nosniff')
      // The bytes under a key never change.
      .header('cache-control', 'max-age=31536000, immutable')
      .header('etag', `"${key}"`)
      .send(Buffer.from(content, 'base64'));
  }
}
