import { featureModule, type ServiceRole } from '@app/platform/rpc/feature-module';
import { type DynamicModule, Module } from '@nestjs/common';
import { SpaceCommentsController } from './http/space-comments.controller';
import { CommentPresenter } from './read/comment.presenter';
import { CommentQueries } from './read/comments.queries';
import { CommentService } from './write/comment.commands';

@Module({})
export class CommentsModule {
  static forRole(role: ServiceRole): DynamicModule {
    return featureModule(CommentsModule, role, {
      controllers: [SpaceCommentsController],
      commands: [CommentService],
      queries: [CommentQueries, CommentPresenter],
    });
  }
}
