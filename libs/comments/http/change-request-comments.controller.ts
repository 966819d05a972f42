import type { Viewer } from '@app/platform/auth/access';
import { CurrentViewer } from '@app/platform/auth/auth.guard';
import { OwnersMay, RequiresRole } from '@app/platform/auth/requires-role';
import { id } from '@app/platform/http/ids.pipe';
import { ReadYourWrites } from '@app/platform/projector/read-your-writes';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { COMMENT_AUTHORS } from '../read/comment.projection';
import { CommentQueries } from '../read/comments.queries';
import { CommentService } from '../write/comment.commands';
import {
  FormatQueryDto,
  ListCommentsQueryDto,
  ListRepliesQueryDto,
  PostCommentDto,
  PostReplyDto,
  UpdateCommentDto,
  UpdateReplyDto,
} from './comments.dto';

const spaceId = () => Param('spaceId', id('spaceId'));
const changeRequestId = () => Param('changeRequestId', id('changeRequestId'));
/**
 * GitBook names them `commentId` and `commentReplyId`, as on a space; named apart here so that the route
 * suites fill them with a comment of a change request (a parameter's name picks its fixture).
 */
const commentId = () => Param('changeRequestCommentId', id('changeRequestCommentId'));
const replyId = () => Param('changeRequestCommentReplyId', id('changeRequestCommentReplyId'));

/**
 * Comments on a change request (given by id or number) and their replies, as on a space
 * (`SpaceCommentsController`); a comment may come with a review (`target.review`).
 */
@Controller('spaces/:spaceId/change-requests/:changeRequestId/comments')
export class ChangeRequestCommentsController {
  constructor(
    private readonly service: CommentService,
    private readonly queries: CommentQueries,
    private readonly views: ReadYourWrites,
  ) {}

  @RequiresRole('read')
  @Get()
  list(
    @spaceId() space: string,
    @changeRequestId() cr: string,
    @Query() query: ListCommentsQueryDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.queries.list(space, cr, query, viewer);
  }

  @RequiresRole('comment')
  @Post()
  @HttpCode(200)
  post(
    @spaceId() space: string,
    @changeRequestId() cr: string,
    @Body() body: PostCommentDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.views.after(this.service.post(space, cr, body, viewer), (w) =>
      this.queries.get(space, cr, w.commentId, {}, viewer),
    );
  }

  @RequiresRole('read')
  @Get(':changeRequestCommentId')
  get(
    @spaceId() space: string,
    @changeRequestId() cr: string,
    @commentId() comment: string,
    @Query() query: FormatQueryDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.queries.get(space, cr, comment, query, viewer);
  }

  @RequiresRole('comment')
  @Put(':changeRequestCommentId')
  update(
    @spaceId() space: string,
    @changeRequestId() cr: string,
    @commentId() comment: string,
    @Body() body: UpdateCommentDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.views.after(this.service.update(space, cr, comment, body, viewer), () =>
      this.queries.get(space, cr, comment, {}, viewer),
    );
  }

  @RequiresRole('admin')
  @OwnersMay({ param: 'changeRequestCommentId', collection: COMMENT_AUTHORS, role: 'author' })
  @Delete(':changeRequestCommentId')
  @HttpCode(205)
  async delete(
    @spaceId() space: string,
    @changeRequestId() cr: string,
    @commentId() comment: string,
    @CurrentViewer() viewer: Viewer,
  ) {
    await this.views.wait(this.service.delete(space, cr, comment, viewer));
  }

  @RequiresRole('read')
  @Get(':changeRequestCommentId/replies')
  listReplies(
    @spaceId() space: string,
    @changeRequestId() cr: string,
    @commentId() comment: string,
    @Query() query: ListRepliesQueryDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.queries.listReplies(space, cr, comment, query, viewer);
  }

  @RequiresRole('comment')
  @Post(':changeRequestCommentId/replies')
  @HttpCode(200)
  postReply(
    @spaceId() space: string,
    @changeRequestId() cr: string,
    @commentId() comment: string,
    @Body() body: PostReplyDto,
    @Query() query: FormatQueryDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.views.after(this.service.postReply(space, cr, comment, body, viewer), (w) =>
      this.queries.getReply(space, cr, comment, w.replyId, query, viewer),
    );
  }

  @RequiresRole('read')
  @Get(':changeRequestCommentId/replies/:changeRequestCommentReplyId')
  getReply(
    @spaceId() space: string,
    @changeRequestId() cr: string,
    @commentId() comment: string,
    @replyId() reply: string,
    @Query() query: FormatQueryDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.queries.getReply(space, cr, comment, reply, query, viewer);
  }

  @RequiresRole('comment')
  @Put(':changeRequestCommentId/replies/:changeRequestCommentReplyId')
  updateReply(
    @spaceId() space: string,
    @changeRequestId() cr: string,
    @commentId() comment: string,
    @replyId() reply: string,
    @Body() body: UpdateReplyDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.views.after(this.service.updateReply(space, cr, comment, reply, body, viewer), () =>
      this.queries.getReply(space, cr, comment, reply, {}, viewer),
    );
  }

  @RequiresRole('admin')
  @OwnersMay({ param: 'changeRequestCommentReplyId', collection: COMMENT_AUTHORS, role: 'author' })
  @Delete(':changeRequestCommentId/replies/:changeRequestCommentReplyId')
  @HttpCode(205)
  async deleteReply(
    @spaceId() space: string,
    @changeRequestId() cr: string,
    @commentId() comment: string,
    @replyId() reply: string,
    @CurrentViewer() viewer: Viewer,
  ) {
    await this.views.wait(this.service.deleteReply(space, cr, comment, reply, viewer));
  }
}
