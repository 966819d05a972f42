import type { Viewer } from '@app/platform/auth/access';
import { CurrentViewer } from '@app/platform/auth/auth.guard';
import { RequiresRole } from '@app/platform/auth/requires-role';
import { id } from '@app/platform/http/ids.pipe';
import { RestOfPath } from '@app/platform/http/rest-of-path';
import { Controller, Get, Param, Query } from '@nestjs/common';
import { ContentQueries } from '../read/content.queries';
import {
  ChangeRequestChangesQueryDto,
  ChangesQueryDto,
  ContentListQueryDto,
  ContentQueryDto,
  PageDocumentQueryDto,
  PagePathQueryDto,
  PageQueryDto,
} from './content.dto';
import { PagePathPipe } from './page-path.pipe';

const spaceId = () => Param('spaceId', id('spaceId'));
const pageId = () => Param('pageId', id('pageId'));
const fileId = () => Param('fileId', id('fileId'));

/**
 * A page path is the rest of the URL (`path/*`): GitBook's client sends `guides/intro` unencoded, and
 * `guides%2Fintro` reads the same.
 */
const pagePath = () => RestOfPath('pagePath', new PagePathPipe());
const changeRequest = () =>
  Param('changeRequestId', id('changeRequestId'), { transform: (ref: string) => `cr:${ref}` });
const revision = () => Param('revisionId', id('revisionId'), { transform: (ref: string) => `rev:${ref}` });

const SPACE = 'space';
const CR = 'spaces/:spaceId/change-requests/:changeRequestId/content';
const REV = 'spaces/:spaceId/revisions/:revisionId';

/**
 * Content reads, the same for the space's current revision (`/content`), a change request's
 * (`/change-requests/{id}/content`) and any revision (`/revisions/{id}`): each route names its source.
 */
@Controller()
export class ContentController {
  constructor(private readonly queries: ContentQueries) {}

  @RequiresRole('read')
  @Get('spaces/:spaceId/content')
  current(@spaceId() space: string, @Query() _q: ContentQueryDto, @CurrentViewer() viewer: Viewer) {
    return this.queries.revision(space, SPACE, viewer);
  }

  @RequiresRole('read')
  @Get(CR)
  ofChangeRequest(
    @spaceId() space: string,
    @changeRequest() from: string,
    @Query() _q: ContentQueryDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.queries.revision(space, from, viewer);
  }

  @RequiresRole('read')
  @Get(REV)
  byId(
    @spaceId() space: string,
    @revision() from: string,
    @Query() _q: ContentQueryDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.queries.revision(space, from, viewer);
  }

  @RequiresRole('read')
  @Get('spaces/:spaceId/content/pages')
  pages(@spaceId() space: string, @Query() _q: ContentQueryDto, @CurrentViewer() viewer: Viewer) {
    return this.queries.pages(space, SPACE, viewer);
  }

  @RequiresRole('read')
  @Get(`${CR}/pages`)
  changeRequestPages(
    @spaceId() space: string,
    @changeRequest() from: string,
    @Query() _q: ContentQueryDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.queries.pages(space, from, viewer);
  }

  @RequiresRole('read')
  @Get(`${REV}/pages`)
  revisionPages(
    @spaceId() space: string,
    @revision() from: string,
    @Query() _q: ContentQueryDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.queries.pages(space, from, viewer);
  }

  @RequiresRole('read')
  @Get('spaces/:spaceId/content/files')
  files(@spaceId() space: string, @Query() q: ContentListQueryDto, @CurrentViewer() viewer: Viewer) {
    return this.queries.files(space, SPACE, q, viewer);
  }

  @RequiresRole('read')
  @Get(`${CR}/files`)
  changeRequestFiles(
    @spaceId() space: string,
    @changeRequest() from: string,
    @Query() q: ContentListQueryDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.queries.files(space, from, q, viewer);
  }

  @RequiresRole('read')
  @Get(`${REV}/files`)
  revisionFiles(
    @spaceId() space: string,
    @revision() from: string,
    @Query() q: ContentListQueryDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.queries.files(space, from, q, viewer);
  }

  @RequiresRole('read')
  @Get('spaces/:spaceId/content/files/:fileId')
  file(
    @spaceId() space: string,
    @fileId() file: string,
    @Query() _q: ContentQueryDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.queries.file(space, SPACE, file, viewer);
  }

  @RequiresRole('read')
  @Get(`${CR}/files/:fileId`)
  changeRequestFile(
    @spaceId() space: string,
    @changeRequest() from: string,
    @fileId() file: string,
    @Query() _q: ContentQueryDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.queries.file(space, from, file, viewer);
  }

  @RequiresRole('read')
  @Get(`${REV}/files/:fileId`)
  revisionFile(
    @spaceId() space: string,
    @revision() from: string,
    @fileId() file: string,
    @Query() _q: ContentQueryDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.queries.file(space, from, file, viewer);
  }

  @RequiresRole('read')
  @Get('spaces/:spaceId/content/page/:pageId')
  page(
    @spaceId() space: string,
    @pageId() page: string,
    @Query() q: PageQueryDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.queries.pageById(space, SPACE, page, q, viewer);
  }

  @RequiresRole('read')
  @Get(`${CR}/page/:pageId`)
  changeRequestPage(
    @spaceId() space: string,
    @changeRequest() from: string,
    @pageId() page: string,
    @Query() q: PageQueryDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.queries.pageById(space, from, page, q, viewer);
  }

  @RequiresRole('read')
  @Get(`${REV}/page/:pageId`)
  revisionPage(
    @spaceId() space: string,
    @revision() from: string,
    @pageId() page: string,
    @Query() q: PageQueryDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.queries.pageById(space, from, page, q, viewer);
  }

  @RequiresRole('read')
  @Get(`${REV}/page/:pageId/document`)
  revisionPageDocument(
    @spaceId() space: string,
    @revision() from: string,
    @pageId() page: string,
    @Query() _q: PageDocumentQueryDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.queries.pageDocument(space, from, page, viewer);
  }

  @RequiresRole('read')
  @Get('spaces/:spaceId/content/path/*')
  pageByPath(
    @spaceId() space: string,
    @pagePath() path: string,
    @Query() q: PagePathQueryDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.queries.pageByPath(space, SPACE, path, q, viewer);
  }

  @RequiresRole('read')
  @Get(`${CR}/path/*`)
  changeRequestPageByPath(
    @spaceId() space: string,
    @changeRequest() from: string,
    @pagePath() path: string,
    @Query() q: PagePathQueryDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.queries.pageByPath(space, from, path, q, viewer);
  }

  @RequiresRole('read')
  @Get(`${REV}/path/*`)
  revisionPageByPath(
    @spaceId() space: string,
    @revision() from: string,
    @pagePath() path: string,
    @Query() q: PagePathQueryDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.queries.pageByPath(space, from, path, q, viewer);
  }

  @RequiresRole('read')
  @Get(`${REV}/changes`)
  revisionChanges(
    @spaceId() space: string,
    @Param('revisionId', id('revisionId')) revisionId: string,
    @Query() q: ChangesQueryDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.queries.revisionChanges(space, revisionId, q.limit, viewer);
  }

  @RequiresRole('read')
  @Get('spaces/:spaceId/change-requests/:changeRequestId/changes')
  changeRequestChanges(
    @spaceId() space: string,
    @Param('changeRequestId', id('changeRequestId')) ref: string,
    @Query() q: ChangeRequestChangesQueryDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.queries.changeRequestChanges(space, ref, q.limit, viewer);
  }
}
