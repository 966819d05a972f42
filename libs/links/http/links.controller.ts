import type { Viewer } from '@app/platform/auth/access';
import { CurrentViewer } from '@app/platform/auth/auth.guard';
import { RequiresRole } from '@app/platform/auth/requires-role';
import { invalid } from '@app/platform/domain/decider';
import { id } from '@app/platform/http/ids.pipe';
import { ListQueryDto } from '@app/platform/http/pagination';
import { OwnShape } from '@app/platform/openapi/own-shape';
import { Controller, Get, Param, Query } from '@nestjs/common';
import { linkEmbed } from '../domain';
import { LinkQueries } from '../read/links.queries';
import { EmbedQueryDto, LinksQueryDto } from './links.dto';

const spaceId = () => Param('spaceId', id('spaceId'));
const pageId = () => Param('pageId', id('pageId'));
const fileId = () => Param('fileId', id('fileId'));
const changeRequest = () =>
  Param('changeRequestId', id('changeRequestId'), { transform: (ref: string) => `cr:${ref}` });
const CR = 'spaces/:spaceId/change-requests/:changeRequestId/content';

/**
 * What the links routes answer: the seeds specify them; @gitbook/api's document dropped these operations
 * after 0.181, whose shapes they follow.
 */
const LINKS =
  "A list in GitBook's shapes of @gitbook/api 0.181 (ContentReferenceUsage, ContentLocation, ContentReferencesStats), which the current document has no schemas for";

/** GitBook's `Embed` of a URL: a link card, computed from the URL alone (see `linkEmbed`). */
function embedOf(url: string) {
  const embed = linkEmbed(url);
  if (!embed) throw invalid('url must be an http or https URL');
  return embed;
}

/**
 * Links of a space's content or a change request's, with their status, the backlinks of files, and the
 * embeds of URLs (what GitBook's renderer asks to draw an embed block).
 */
@Controller()
export class LinksController {
  constructor(private readonly queries: LinkQueries) {}

  @RequiresRole('read')
  @Get('spaces/:spaceId/links')
  @OwnShape(LINKS)
  spaceLinks(@spaceId() space: string, @Query() query: LinksQueryDto, @CurrentViewer() viewer: Viewer) {
    return this.queries.spaceLinks(space, 'space', query, viewer);
  }

  @RequiresRole('read')
  @Get('spaces/:spaceId/content/page/:pageId/links')
  @OwnShape(LINKS)
  pageLinks(
    @spaceId() space: string,
    @pageId() page: string,
    @Query() query: LinksQueryDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.queries.pageLinks(space, 'space', page, query, viewer);
  }

  @RequiresRole('read')
  @Get(`${CR}/page/:pageId/links`)
  @OwnShape(LINKS)
  changeRequestPageLinks(
    @spaceId() space: string,
    @changeRequest() from: string,
    @pageId() page: string,
    @Query() query: LinksQueryDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.queries.pageLinks(space, from, page, query, viewer);
  }

  @RequiresRole('read')
  @Get('spaces/:spaceId/content/files/:fileId/backlinks')
  @OwnShape(LINKS)
  fileBacklinks(
    @spaceId() space: string,
    @fileId() file: string,
    @Query() query: ListQueryDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.queries.fileBacklinks(space, 'space', file, query, viewer);
  }

  @RequiresRole('read')
  @Get(`${CR}/files/:fileId/backlinks`)
  @OwnShape(LINKS)
  changeRequestFileBacklinks(
    @spaceId() space: string,
    @changeRequest() from: string,
    @fileId() file: string,
    @Query() query: ListQueryDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.queries.fileBacklinks(space, from, file, query, viewer);
  }

  @RequiresRole('read')
  @Get('spaces/:spaceId/embed')
  embedInSpace(@spaceId() _space: string, @Query() query: EmbedQueryDto) {
    return embedOf(query.url);
  }

  @RequiresRole('read')
  @Get('urls/embed')
  embed(@Query() query: EmbedQueryDto) {
    return embedOf(query.url);
  }
}
