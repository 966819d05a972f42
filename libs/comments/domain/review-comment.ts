/** The job that turns a review's comment into a comment of its change request (`target.review`). */
export const REVIEW_COMMENT_JOB = 'comment.from-review';

/** One per review submitted with a comment. */
export const reviewCommentJobId = (reviewEventId: string) => `review-comment-${reviewEventId}`;
