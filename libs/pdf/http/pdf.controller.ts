import type { Viewer } from '@app/platform/auth/access';
import { CurrentViewer, Public } from '@app/platform/auth/auth.guard';
import { RequiresRole } from '@app/platform/auth/requires-role';
import { BooleanQuery } from '@app/platform/http/fields';
import { id } from '@app/platform/http/ids.pipe';
import { IsAbsentOr } from '@app/platform/http/validation';
import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { Matches } from 'class-validator';
import type { FastifyReply } from 'fastify';
import { PdfQueries, type PdfQuery } from '../read/pdf.queries';

export class PdfQueryDto implements PdfQuery {
  /** The page to print (with `only`, that page alone; else the page and those under it). */
  @IsAbsentOr()
  @Matches(/^[A-Za-z0-9_-]{1,64}$/, { message: 'page must be a page id' })
  page?: string;

  @BooleanQuery()
  only?: boolean;
}

/** A download link's token (in the query: longer than a path parameter may be), checked in full when followed. */
export class DownloadQueryDto {
  @Matches(/^[A-Za-z0-9_-]{1,2048}\.[A-Za-z0-9_-]{43}$/, { message: 'token must be a download link token' })
  token: string;
}

const spaceId = () => Param('spaceId', id('spaceId'));

/** PDF exports of a space, a change request or one page: a temporary link, followed without a token. */
@Controller()
export class PdfController {
  constructor(private readonly queries: PdfQueries) {}

  @RequiresRole('read')
  @Get('spaces/:spaceId/pdf')
  space(@spaceId() space: string, @Query() query: PdfQueryDto, @CurrentViewer() viewer: Viewer) {
    return this.queries.link(space, 'space', query, viewer);
  }

  @RequiresRole('read')
  @Get('spaces/:spaceId/change-requests/:changeRequestId/pdf')
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
  async download(@Query() query: DownloadQueryDto, @Res() reply: FastifyReply) {
    const { pdf, filename } = await this.queries.render(query.token);
    reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', `inline; filename="${filename}"`)
      .header('cache-control', 'private, max-age=3600')
      .send(Buffer.from(pdf, 'base64'));
  }
}
