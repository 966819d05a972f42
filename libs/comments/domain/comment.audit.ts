import { auditSubjects, type Subject } from '@app/platform/domain/audit-subject';
import type { CommentEvent } from './comment.decider';

/** A comment, under its organization; replies and reactions are about the comment they belong to. */
const comment = (d: { commentId: string; organization: string }): Subject => ({
  type: 'comment',
  id: d.commentId,
  organization: d.organization,
});

export const commentAuditSubjects = auditSubjects<CommentEvent>()({
  comment: {
    CommentCreated: comment,
    CommentEdited: comment,
    CommentResolved: comment,
    CommentReopened: comment,
    CommentReactionAdded: comment,
    CommentReactionRemoved: comment,
    CommentDeleted: comment,
    CommentReplyCreated: comment,
    CommentReplyEdited: comment,
    CommentReplyReactionAdded: comment,
    CommentReplyReactionRemoved: comment,
    CommentReplyDeleted: comment,
  },
});
