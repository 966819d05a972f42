import type { SpaceContentEvent } from '@app/content/content.api';
import { CLOCK, type Clock } from '@app/platform/clock/clock';
import type { RecordedEvent } from '@app/platform/eventstore/event-store.port';
import { JobHandler } from '@app/platform/jobs/job-handler';
import { JobPerEvent, unlessGone } from '@app/platform/jobs/job-per-event';
import { JOB_QUEUE, type JobQueue } from '@app/platform/jobs/job-queue.port';
import { READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import { SPACES } from '@app/spaces/read/space.projection';
import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { commentAggregate } from '../domain/comment.aggregate';
import { REVIEW_COMMENT_JOB, reviewCommentJobId } from '../domain/review-comment';

type Submitted = Extract<SpaceContentEvent, { type: 'ChangeRequestReviewSubmitted' }>['data'];

interface ReviewCommentData {
  review: Submitted;
  reviewEventId: string;
  correlationId: string;
}

/**
 * A review given with a comment makes that comment one of its change request's, under the id the review
 * keeps for it (`target.review`): posted by the reviewer when the review was, so it is replied to,
 * resolved and counted as any other. A job per review, started from the log; posting a comment that
 * already exists adds nothing, so a repeated job has one effect.
 */
@JobHandler()
@Injectable()
export class ReviewComments extends JobPerEvent<ReviewCommentData> {
  readonly job = REVIEW_COMMENT_JOB;
  readonly name = 'review-comments';
  readonly handles = ['ChangeRequestReviewSubmitted'] as const;

  constructor(
    @Inject(JOB_QUEUE) jobs: JobQueue,
    @Inject(READ_STORE) private readonly views: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly bus: CommandBus,
  ) {
    super(jobs);
  }

  protected override wants(event: RecordedEvent): boolean {
    return (event.data as Submitted).comment !== undefined;
  }

  protected dataOf(event: RecordedEvent): ReviewCommentData {
    return {
      review: event.data as Submitted,
      reviewEventId: event.id,
      correlationId: event.metadata.correlationId,
    };
  }

  protected jobId(eventId: string): string {
    return reviewCommentJobId(eventId);
  }

  protected async run({ review, reviewEventId, correlationId }: ReviewCommentData) {
    const { comment, spaceId, changeRequestId } = review;
    const space = await this.views.get(SPACES, spaceId);
    if (!comment || !space) return;
    const at = Date.parse(review.submittedAt);
    await unlessGone(
      this.bus.execute(
        commentAggregate.message(
          comment.id,
          {
            type: 'PostComment',
            commentId: comment.id,
            place: { organization: space.organization, spaceId, changeRequestId },
            anchor: { revision: review.revision, review: review.reviewId },
            body: { body: comment.body },
            actor: { userId: review.reviewer, admin: false },
            at: Number.isNaN(at) ? this.clock.now() : at,
          },
          { source: 'system', correlationId, causationId: reviewEventId },
        ),
      ),
    );
  }
}
