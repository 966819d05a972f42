import type { Viewer } from '@app/platform/auth/access';
import { CurrentViewer } from '@app/platform/auth/auth.guard';
import { OpenToGuests, RequiresRole } from '@app/platform/auth/requires-role';
import { IfMatch } from '@app/platform/http/etag';
import { id } from '@app/platform/http/ids.pipe';
import { Urls } from '@app/platform/http/urls';
import { ReadYourWrites } from '@app/platform/projector/read-your-writes';
import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { presentContentUpdate } from '../read/change-request.presenter';
import { ChangeRequestQueries } from '../read/change-requests.queries';
import { ChangeRequestService, type MergeOutcome } from '../write/change-request.commands';
import {
  CreateChangeRequestDto,
  OrganizationChangeRequestsQueryDto,
  SpaceChangeRequestsQueryDto,
  UpdateChangeRequestDto,
  UpdateContentDto,
  UpdateContentQueryDto,
} from './change-requests.dto';

const spaceId = () => Param('spaceId', id('spaceId'));
const changeRequestId = () => Param('changeRequestId', id('changeRequestId'));

/** Change requests of a space: proposed edits, written through batches of content changes, then merged. */
@Controller()
export class ChangeRequestsController {
  constructor(
    private readonly service: ChangeRequestService,
    private readonly queries: ChangeRequestQueries,
    private readonly views: ReadYourWrites,
    private readonly urls: Urls,
  ) {}

  /** Guests see the change requests of the spaces shared with them, as everyone sees the readable ones'. */
  @RequiresRole('read')
  @OpenToGuests()
  @Get('orgs/:organizationId/change-requests')
  listInOrganization(
    @Param('organizationId', id('organizationId')) organization: string,
    @Query() query: OrganizationChangeRequestsQueryDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.queries.listInOrganization(organization, query, viewer);
  }

  @RequiresRole('read')
  @Get('spaces/:spaceId/change-requests')
  list(
    @spaceId() space: string,
    @Query() query: SpaceChangeRequestsQueryDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.queries.listInSpace(space, query, viewer);
  }

  @RequiresRole('edit')
  @Post('spaces/:spaceId/change-requests')
  @HttpCode(201)
  create(@spaceId() space: string, @Body() body: CreateChangeRequestDto, @CurrentViewer() viewer: Viewer) {
    return this.views.after(this.service.create(space, body, viewer), (w) =>
      this.queries.get(space, w.changeRequestId, viewer),
    );
  }

  @RequiresRole('read')
  @Get('spaces/:spaceId/change-requests/:changeRequestId')
  get(@spaceId() space: string, @changeRequestId() ref: string, @CurrentViewer() viewer: Viewer) {
    return this.queries.get(space, ref, viewer);
  }

  @RequiresRole('edit')
  @Patch('spaces/:spaceId/change-requests/:changeRequestId')
  update(
    @spaceId() space: string,
    @changeRequestId() ref: string,
    @Body() body: UpdateChangeRequestDto,
    @CurrentViewer() viewer: Viewer,
    @IfMatch() ifMatch?: number,
  ) {
    return this.views.after(this.service.update(space, ref, body, viewer, ifMatch), (w) =>
      this.queries.get(space, w.changeRequestId, viewer),
    );
  }

  /** A batch of up to 50 changes, applied together or not at all; `If-Match` pins the version edited. */
  @RequiresRole('edit')
  @Post('spaces/:spaceId/change-requests/:changeRequestId/content')
  @HttpCode(200)
  updateContent(
    @spaceId() space: string,
    @changeRequestId() ref: string,
    @Body() body: UpdateContentDto,
    @Query() query: UpdateContentQueryDto,
    @CurrentViewer() viewer: Viewer,
    @IfMatch() ifMatch?: number,
  ) {
    return this.views.after(this.service.updateContent(space, ref, body, viewer, ifMatch), async (w) => {
      const changeRequest = await this.queries.get(space, w.changeRequestId, viewer);
      if (query.compat !== false) return changeRequest;
      return { changeRequest, ...presentContentUpdate(this.urls, space, w) };
    });
  }

  @RequiresRole('review')
  @Post('spaces/:spaceId/change-requests/:changeRequestId/merge')
  @HttpCode(200)
  merge(@spaceId() space: string, @changeRequestId() ref: string, @CurrentViewer() viewer: Viewer) {
    // The answer is the merge's own outcome: once merged, it is answered so, however far the views are.
    return this.views.wait(this.service.merge(space, ref, viewer)).then(answer);
  }

  @RequiresRole('edit')
  @Post('spaces/:spaceId/change-requests/:changeRequestId/update')
  @HttpCode(200)
  rebase(@spaceId() space: string, @changeRequestId() ref: string, @CurrentViewer() viewer: Viewer) {
    return this.views.wait(this.service.rebase(space, ref, viewer)).then(answer);
  }
}

const answer = ({ revision, result }: MergeOutcome) => ({ revision, result });
