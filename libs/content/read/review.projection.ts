import { documents, projection } from '@app/platform/projector/projection';
import { collectionName, type Doc } from '@app/platform/readstore/read-store.port';
import type { ReviewStatus } from '@app/spaces/domain/merge-rules';
import type { ReviewComment, SpaceContentEvent } from '../domain/space-content.decider';

export interface ReviewDoc extends Doc {
  space: string;
  changeRequest: string;
  reviewer: string;
  status: ReviewStatus;
  /** The revision reviewed. */
  revision: string;
  /** Who asked for it, when the reviewer had been asked. */
  requestedBy: string | null;
  /** Superseded by a later review of the same reviewer, or a later request to review again. */
  outdated: boolean;
  /** The comment given with it (absent without one). */
  comment?: ReviewComment;
  createdAt: string;
  updatedAt: string;
}

/** A pending request to review, until the reviewer reviews or is removed. */
export interface RequestedReviewerDoc extends Doc {
  space: string;
  changeRequest: string;
  user: string;
  revision: string;
  requestedBy: string | null;
  createdAt: string;
}

export const REVIEWS = collectionName<ReviewDoc>('change_request_reviews');
export const REQUESTED_REVIEWERS = collectionName<RequestedReviewerDoc>('change_request_requested_reviewers');

const requestKey = (changeRequest: string, user: string) => `${changeRequest}:${user}`;

/** Reviews of change requests, and who is asked to review. */
export const reviewProjection = projection<SpaceContentEvent>(
  'change-request-reviews',
  [
    { collection: REVIEWS, fields: ['changeRequest', 'createdAt'] },
    { collection: REVIEWS, fields: ['changeRequest', 'outdated', 'createdAt'] },
    { collection: REVIEWS, fields: ['changeRequest', 'reviewer', 'outdated'] },
    { collection: REQUESTED_REVIEWERS, fields: ['changeRequest', 'createdAt'] },
  ],
  {
    ChangeRequestReviewSubmitted: async (e, ctx) => {
      const d = e.data;
      await supersede(ctx, d.changeRequestId, d.reviewer, d.submittedAt);
      const request = await ctx.get(REQUESTED_REVIEWERS, requestKey(d.changeRequestId, d.reviewer));
      if (request) await ctx.delete(REQUESTED_REVIEWERS, request.id);
      await ctx.put(REVIEWS, {
        id: d.reviewId,
        space: d.spaceId,
        changeRequest: d.changeRequestId,
        reviewer: d.reviewer,
        status: d.status,
        revision: d.revision,
        requestedBy: request?.requestedBy ?? null,
        outdated: false,
        ...(d.comment ? { comment: d.comment } : {}),
        createdAt: d.submittedAt,
        updatedAt: d.submittedAt,
      });
    },
    ChangeRequestReviewersRequested: async (e, ctx) => {
      const d = e.data;
      for (const user of d.users) {
        await supersede(ctx, d.changeRequestId, user, d.requestedAt);
        await ctx.put(REQUESTED_REVIEWERS, {
          id: requestKey(d.changeRequestId, user),
          space: d.spaceId,
          changeRequest: d.changeRequestId,
          user,
          revision: d.revision,
          requestedBy: d.requestedBy,
          createdAt: d.requestedAt,
        });
      }
    },
    ChangeRequestReviewerRemoved: documents(REQUESTED_REVIEWERS).delete((e) =>
      requestKey(e.data.changeRequestId, e.data.user),
    ),
  },
);

async function supersede(
  ctx: Parameters<typeof reviewProjection.apply>[1],
  changeRequest: string,
  reviewer: string,
  at: string,
) {
  for (const review of await ctx.find(REVIEWS, { changeRequest, reviewer, outdated: false })) {
    await ctx.put(REVIEWS, { ...review, outdated: true, updatedAt: at });
  }
}
