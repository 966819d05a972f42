import type { Viewer } from '@app/platform/auth/access';
import { CurrentViewer, Public } from '@app/platform/auth/auth.guard';
import { RequiresRole } from '@app/platform/auth/requires-role';
import { id } from '@app/platform/http/ids.pipe';
import { OwnShape } from '@app/platform/openapi/own-shape';
import { Controller, Get, Header, Param, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { PdfQueries } from '../read/pdf.queries';
import { DownloadQueryDto, PdfQueryDto } from './pdf.dto';

const spaceId = () => Param('spaceId', id('spaceId'));

/**
 * PDF exports of a space, a change request or one page: a temporary link, followed without a token. A
 * link expires an hour after it is asked for, so each request makes one anew (`no-store`, which the
 * response cache honours).
 */
@Controller()
export class PdfController {
  constructor(private readonly queries: PdfQueries) {}

  @RequiresRole('read')
  @Get('spaces/:spaceId/pdf')
  @Header('cache-control', 'no-store')
  space(@spaceId() space: string, @Query() query: PdfQueryDto, @CurrentViewer() viewer: Viewer) {
    return this.queries.link(space, 'space', query, viewer);
  }

  @RequiresRole('read')
  @Get('spaces/:spaceId/change-requests/:changeRequestId/pdf')
  @Header('cache-control', 'no-store')
  changeRequest(
    @spaceId() space: string,
    @Param('changeRequestId', id('changeRequestId'), { transform: (ref: string) => `cr:${ref}` })
    from: string,
    @Query() query: PdfQueryDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.queries.link(space, from, query, viewer);
  }

  /** What a link grants is in its signed token: no bearer token is asked. */
  @Public()
  @Get('downloads/pdf')
  @OwnShape('The PDF (application/pdf) a download link of getSpacePDF or getChangeRequestPDF names')
  async download(@Query() query: DownloadQueryDto, @Res() reply: FastifyReply) {
    const { pdf, filename } = await this.queries.render(query.token);
    reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', `inline; filename="${filename}"`)
      .header('cache-control', 'private, max-age=3600')
      .send(Buffer.from(pdf, 'base64'));
  }
}
