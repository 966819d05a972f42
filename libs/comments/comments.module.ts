import { MemberPresenter } from '@app/members/read/member.presenter';
import { featureModule, type ServiceRole } from '@app/platform/rpc/feature-module';
import { type DynamicModule, Module } from '@nestjs/common';
import { ChangeRequestCommentsController } from './http/change-request-comments.controller';
import { CommentersController } from './http/commenters.controller';
import { SpaceCommentsController } from './http/space-comments.controller';
import { CommentPresenter } from './read/comment.presenter';
import { CommenterQueries } from './read/commenters.queries';
import { CommentQueries } from './read/comments.queries';
import { CommentService } from './write/comment.commands';
import { ReviewComments } from './write/review-comment.job';

@Module({})
export class CommentsModule {
  static forRole(role: ServiceRole): DynamicModule {
    return featureModule(CommentsModule, role, {
      controllers: [SpaceCommentsController, ChangeRequestCommentsController, CommentersController],
      commands: [CommentService],
      queries: [CommentQueries, CommentPresenter, CommenterQueries, MemberPresenter],
      jobs: [ReviewComments],
    });
  }
}
