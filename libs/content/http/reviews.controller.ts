import type { Viewer } from '@app/platform/auth/access';
import { CurrentViewer } from '@app/platform/auth/auth.guard';
import { RequiresRole } from '@app/platform/auth/requires-role';
import { id } from '@app/platform/http/ids.pipe';
import { ListQueryDto } from '@app/platform/http/pagination';
import { ReadYourWrites } from '@app/platform/projector/read-your-writes';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ChangeRequestQueries } from '../read/change-requests.queries';
import { ChangeRequestService } from '../write/change-request.commands';
import { RequestReviewersDto, ReviewQueryDto, ReviewsQueryDto, SubmitReviewDto } from './reviews.dto';

const spaceId = () => Param('spaceId', id('spaceId'));
const changeRequestId = () => Param('changeRequestId', id('changeRequestId'));

/** The reviews of a change request and who is asked to review it, as GitBook clients use them. */
@Controller('spaces/:spaceId/change-requests/:changeRequestId')
export class ReviewsController {
  constructor(
    private readonly service: ChangeRequestService,
    private readonly queries: ChangeRequestQueries,
    private readonly views: ReadYourWrites,
  ) {}

  @RequiresRole('read')
  @Get('reviews')
  list(
    @spaceId() space: string,
    @changeRequestId() ref: string,
    @Query() query: ReviewsQueryDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.queries.listReviews(space, ref, query, viewer);
  }

  @RequiresRole('review')
  @Post('reviews')
  @HttpCode(201)
  submit(
    @spaceId() space: string,
    @changeRequestId() ref: string,
    @Body() body: SubmitReviewDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.views.after(this.service.submitReview(space, ref, body, viewer), (w) =>
      this.queries.getReview(space, w.changeRequestId, w.reviewId, viewer),
    );
  }

  @RequiresRole('read')
  @Get('reviews/:reviewId')
  get(
    @spaceId() space: string,
    @changeRequestId() ref: string,
    @Param('reviewId', id('reviewId')) reviewId: string,
    @Query() query: ReviewQueryDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.queries.getReview(space, ref, reviewId, viewer, query.format);
  }

  @RequiresRole('read')
  @Get('requested-reviewers')
  requested(
    @spaceId() space: string,
    @changeRequestId() ref: string,
    @Query() query: ListQueryDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.queries.listRequestedReviewers(space, ref, query, viewer);
  }

  @RequiresRole('edit')
  @Post('requested-reviewers')
  @HttpCode(200)
  request(
    @spaceId() space: string,
    @changeRequestId() ref: string,
    @Body() body: RequestReviewersDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.views.after(this.service.requestReviewers(space, ref, body, viewer), (w) =>
      this.queries.requestedReviewers(space, w.changeRequestId, w.users, viewer),
    );
  }

  /** 205 when the reviewer was removed, 204 when they had not been asked. */
  @RequiresRole('edit')
  @Delete('requested-reviewers/:userId')
  async remove(
    @spaceId() space: string,
    @changeRequestId() ref: string,
    @Param('userId', id('userId')) user: string,
    @CurrentViewer() viewer: Viewer,
    @Res() reply: FastifyReply,
  ) {
    const write = await this.views.wait(this.service.removeReviewer(space, ref, user, viewer));
    reply.status(write.removed ? 205 : 204).send();
  }
}
