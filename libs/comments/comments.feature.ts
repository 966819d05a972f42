import type { FeatureManifest } from '@app/platform/feature/feature';
import { commentAggregate } from './domain/comment.aggregate';
import { commentAuditSubjects } from './domain/comment.audit';
import { REVIEW_COMMENT_JOB } from './domain/review-comment';
import { commentProjection } from './read/comment.projection';

const created = (reply: unknown) => (reply as { id: string }).id;

/** Comments on spaces and change requests: threads, replies, reactions, resolution. */
export const commentsFeature: FeatureManifest = {
  name: 'comments',
  module: async () => (await import('./comments.module')).CommentsModule,
  aggregates: [commentAggregate],
  projections: [commentProjection],
  audited: commentAuditSubjects,
  jobs: [REVIEW_COMMENT_JOB],
  fixtures: {
    commentId: async ({ call, ids, label }) =>
      created(
        await call('POST', `/v1/spaces/${ids.spaceId}/comments`, { body: { markdown: `${label} comment` } }),
      ),
    commentReplyId: async ({ call, ids, label }) =>
      created(
        await call('POST', `/v1/spaces/${ids.spaceId}/comments/${ids.commentId}/replies`, {
          body: { markdown: `${label} reply` },
        }),
      ),
    changeRequestCommentId: async ({ call, ids, label }) =>
      created(
        await call('POST', `/v1/spaces/${ids.spaceId}/change-requests/${ids.changeRequestId}/comments`, {
          body: { markdown: `${label} comment` },
        }),
      ),
    changeRequestCommentReplyId: async ({ call, ids, label }) =>
      created(
        await call(
          'POST',
          `/v1/spaces/${ids.spaceId}/change-requests/${ids.changeRequestId}/comments/${ids.changeRequestCommentId}/replies`,
          { body: { markdown: `${label} reply` } },
        ),
      ),
  },
};
