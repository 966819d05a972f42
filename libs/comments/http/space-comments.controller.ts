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
const commentId = () => Param('commentId', id('commentId'));
const replyId = () => Param('commentReplyId', id('commentReplyId'));

/**
 * Comments on a space and their replies. Members with `comment` post, reply, react and resolve; the author
 * of a comment or reply, or an admin of the space, edits its body (checked by the decider) and deletes it.
 */
@Controller('spaces/:spaceId/comments')
export class SpaceCommentsController {
  constructor(
    private readonly service: CommentService,
    private readonly queries: CommentQueries,
    private readonly views: ReadYourWrites,
  ) {}

  @RequiresRole('read')
  @Get()
  list(@spaceId() space: string, @Query() query: ListCommentsQueryDto, @CurrentViewer() viewer: Viewer) {
    return this.queries.list(space, undefined, query, viewer);
  }

  @RequiresRole('comment')
  @Post()
  @HttpCode(200)
  post(@spaceId() space: string, @Body() body: PostCommentDto, @CurrentViewer() viewer: Viewer) {
    return this.views.after(this.service.post(space, undefined, body, viewer), (w) =>
      this.queries.get(space, undefined, w.commentId, {}, viewer),
    );
  }

  @RequiresRole('read')
  @Get(':commentId')
  get(
    @spaceId() space: string,
    @commentId() comment: string,
    @Query() query: FormatQueryDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.queries.get(space, undefined, comment, query, viewer);
  }

  @RequiresRole('comment')
  @Put(':commentId')
  update(
    @spaceId() space: string,
    @commentId() comment: string,
    @Body() body: UpdateCommentDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.views.after(this.service.update(space, undefined, comment, body, viewer), () =>
      this.queries.get(space, undefined, comment, {}, viewer),
    );
  }

  @RequiresRole('admin')
  @OwnersMay({ param: 'commentId', collection: COMMENT_AUTHORS, role: 'author' })
  @Delete(':commentId')
  @HttpCode(205)
  async delete(@spaceId() space: string, @commentId() comment: string, @CurrentViewer() viewer: Viewer) {
    await this.views.wait(this.service.delete(space, undefined, comment, viewer));
  }

  @RequiresRole('read')
  @Get(':commentId/replies')
  listReplies(
    @spaceId() space: string,
    @commentId() comment: string,
    @Query() query: ListRepliesQueryDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.queries.listReplies(space, undefined, comment, query, viewer);
  }

  @RequiresRole('comment')
  @Post(':commentId/replies')
  @HttpCode(200)
  postReply(
    @spaceId() space: string,
    @commentId() comment: string,
    @Body() body: PostReplyDto,
    @Query() query: FormatQueryDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.views.after(this.service.postReply(space, undefined, comment, body, viewer), (w) =>
      this.queries.getReply(space, undefined, comment, w.replyId, query, viewer),
    );
  }

  @RequiresRole('read')
  @Get(':commentId/replies/:commentReplyId')
  getReply(
    @spaceId() space: string,
    @commentId() comment: string,
    @replyId() reply: string,
    @Query() query: FormatQueryDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.queries.getReply(space, undefined, comment, reply, query, viewer);
  }

  @RequiresRole('comment')
  @Put(':commentId/replies/:commentReplyId')
  updateReply(
    @spaceId() space: string,
    @commentId() comment: string,
    @replyId() reply: string,
    @Body() body: UpdateReplyDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.views.after(this.service.updateReply(space, undefined, comment, reply, body, viewer), () =>
      this.queries.getReply(space, undefined, comment, reply, {}, viewer),
    );
  }

  @RequiresRole('admin')
  @OwnersMay({ param: 'commentReplyId', collection: COMMENT_AUTHORS, role: 'author' })
  @Delete(':commentId/replies/:commentReplyId')
  @HttpCode(205)
  async deleteReply(
    @spaceId() space: string,
    @commentId() comment: string,
    @replyId() reply: string,
    @CurrentViewer() viewer: Viewer,
  ) {
    await this.views.wait(this.service.deleteReply(space, undefined, comment, reply, viewer));
  }
}
