import type { Document } from '@app/documents/document';
import { spec } from '@app/platform/domain/decider.testing';
import { type CommentCommand, type CommentEvent, commentDecider, mentionsOf } from './comment.decider';

const AT = Date.parse('2026-01-01T00:00:00.000Z');
const ISO = '2026-01-01T00:00:00.000Z';
const place = { organization: 'o1', spaceId: 's1' };
const on = { commentId: 'c1', ...place };
const author = { userId: 'u1', admin: false };
const other = { userId: 'u2', admin: false };
const admin = { userId: 'u3', admin: true };

const doc = (text: string): Document =>
  ({
    object: 'document',
    data: {},
    nodes: [
      { object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text }] }] },
    ],
  }) as unknown as Document;

const mentioning = (user: string): Document =>
  ({
    object: 'document',
    data: {},
    nodes: [
      {
        object: 'block',
        type: 'paragraph',
        nodes: [{ object: 'inline', type: 'mention', isVoid: true, data: { ref: { kind: 'user', user } } }],
      },
    ],
  }) as unknown as Document;

const post: CommentCommand = {
  type: 'PostComment',
  commentId: 'c1',
  place,
  anchor: { revision: 'r1', page: 'p1' },
  body: { body: doc('Hello') },
  actor: author,
  at: AT,
};
const created: CommentEvent = {
  type: 'CommentCreated',
  data: {
    ...on,
    revision: 'r1',
    page: 'p1',
    body: doc('Hello'),
    mentions: [],
    postedBy: 'u1',
    postedAt: ISO,
  },
};
const replied: CommentEvent = {
  type: 'CommentReplyCreated',
  data: { ...on, replyId: 'r1', body: doc('Yes'), mentions: [], postedBy: 'u2', postedAt: ISO },
};
const update = (
  actor: typeof author,
  changes: Extract<CommentCommand, { type: 'UpdateComment' }>['changes'],
  resolved?: boolean,
): CommentCommand => ({ type: 'UpdateComment', place, resolved, changes, actor, at: AT });

describe('comment decider', () => {
  const comment = spec(commentDecider);

  it("keeps a body's Markdown beside its document when the service rendered it", () => {
    const body = { body: doc('Hello'), markdown: 'Hello\n' };
    comment
      .when({ ...post, body })
      .thenEmits([{ type: 'CommentCreated', data: { ...created.data, markdown: 'Hello\n' } }]);
    comment
      .given([created])
      .when(update(author, { body: { body: doc('Edited'), markdown: 'Edited\n' } }))
      .thenEmits([
        {
          type: 'CommentEdited',
          data: { ...on, body: doc('Edited'), markdown: 'Edited\n', mentions: [], editedAt: ISO },
        },
      ]);
  });

  it('posts a comment, listing whom its body mentions', () => {
    comment.when(post).thenEmits([created]);
    comment
      .when({ ...post, body: { body: mentioning('u9') } })
      .thenEmits([
        { type: 'CommentCreated', data: { ...created.data, body: mentioning('u9'), mentions: ['u9'] } },
      ]);
    expect(mentionsOf(doc('none'))).toEqual([]);
  });

  it('posts a comment once: posting it again (a retried job) adds nothing', () => {
    comment.given([created]).when(post).thenNothing();
  });

  it('resolves an open comment and reopens a resolved one; asking again changes nothing', () => {
    const resolved: CommentEvent = {
      type: 'CommentResolved',
      data: { ...on, resolvedBy: 'u2', resolvedAt: ISO },
    };
    comment
      .given([created])
      .when(update(other, {}, true))
      .thenEmits([resolved]);
    comment
      .given([created, resolved])
      .when(update(other, {}, true))
      .thenNothing();
    comment
      .given([created, resolved])
      .when(update(author, {}, false))
      .thenEmits([{ type: 'CommentReopened', data: { ...on, reopenedBy: 'u1', reopenedAt: ISO } }]);
    comment
      .given([created])
      .when(update(author, {}, false))
      .thenNothing();
  });

  it('lets its author or an admin edit the body, and no one else', () => {
    const edited: CommentEvent = {
      type: 'CommentEdited',
      data: { ...on, body: doc('Edited'), mentions: [], editedAt: ISO },
    };
    comment
      .given([created])
      .when(update(author, { body: { body: doc('Edited') } }))
      .thenEmits([edited]);
    comment
      .given([created])
      .when(update(admin, { body: { body: doc('Edited') } }))
      .thenEmits([edited]);
    comment
      .given([created])
      .when(update(other, { body: { body: doc('Edited') } }))
      .thenThrows('forbidden', /author/);
  });

  it('keeps one reaction per user and emoji', () => {
    const added: CommentEvent = {
      type: 'CommentReactionAdded',
      data: { ...on, emoji: '👍', userId: 'u2', reactedAt: ISO },
    };
    comment
      .given([created])
      .when(update(other, { addedReactions: ['👍', '👍'] }))
      .thenEmits([added]);
    comment
      .given([created, added])
      .when(update(other, { addedReactions: ['👍'] }))
      .thenNothing();
    comment
      .given([created, added])
      .when(update(other, { removedReactions: ['👍'] }))
      .thenEmits([
        { type: 'CommentReactionRemoved', data: { ...on, emoji: '👍', userId: 'u2', removedAt: ISO } },
      ]);
    comment
      .given([created, added])
      .when(update(author, { removedReactions: ['👍'] }))
      .thenNothing();
  });

  it('refuses what is not one emoji, and an emoji both added and removed, naming the field', () => {
    comment
      .given([created])
      .when(update(other, { addedReactions: ['smile'] }))
      .thenThrows('invalid', /addedReactions/);
    comment
      .given([created])
      .when(update(other, { removedReactions: [''] }))
      .thenThrows('invalid', /removedReactions/);
    comment
      .given([created])
      .when(update(other, { addedReactions: ['👍'], removedReactions: ['👍'] }))
      .thenThrows('invalid', /both/);
  });

  it('deletes for its author or an admin, saying whether it was open', () => {
    const deleted: CommentEvent = { type: 'CommentDeleted', data: { ...on, open: true, deletedAt: ISO } };
    comment
      .given([created])
      .when({ type: 'DeleteComment', place, actor: author, at: AT })
      .thenEmits([deleted]);
    comment
      .given([created])
      .when({ type: 'DeleteComment', place, actor: admin, at: AT })
      .thenEmits([deleted]);
    comment
      .given([created])
      .when({ type: 'DeleteComment', place, actor: other, at: AT })
      .thenThrows('forbidden');
    comment
      .given([created, { type: 'CommentResolved', data: { ...on, resolvedBy: 'u1', resolvedAt: ISO } }])
      .when({ type: 'DeleteComment', place, actor: author, at: AT })
      .thenEmits([{ type: 'CommentDeleted', data: { ...on, open: false, deletedAt: ISO } }]);
    comment
      .given([created, deleted])
      .when(update(author, {}, true))
      .thenThrows('not_found');
  });

  it('names the organization the space is in now, after a transfer', () => {
    comment
      .given([created])
      .when({
        type: 'UpdateComment',
        place: { ...place, organization: 'o2' },
        resolved: true,
        changes: {},
        actor: other,
        at: AT,
      })
      .thenEmits([
        { type: 'CommentResolved', data: { ...on, organization: 'o2', resolvedBy: 'u2', resolvedAt: ISO } },
      ]);
  });

  it('answers not found for a comment of another place, or none', () => {
    const elsewhere = { ...place, changeRequestId: 'cr1' };
    comment
      .given([created])
      .when({ type: 'DeleteComment', place: elsewhere, actor: admin, at: AT })
      .thenThrows('not_found');
    comment.when(update(author, {}, true)).thenThrows('not_found');
  });

  it('posts, edits, reacts to and deletes replies, their authors or admins alone changing them', () => {
    const reply = { ...on, replyId: 'r1' };
    comment
      .given([created])
      .when({ type: 'PostReply', place, replyId: 'r1', body: { body: doc('Yes') }, actor: other, at: AT })
      .thenEmits([replied]);
    comment
      .given([created, replied])
      .when({
        type: 'UpdateReply',
        place,
        replyId: 'r1',
        changes: { body: { body: doc('No') } },
        actor: author,
        at: AT,
      })
      .thenThrows('forbidden');
    comment
      .given([created, replied])
      .when({
        type: 'UpdateReply',
        place,
        replyId: 'r1',
        changes: { body: { body: doc('No') }, addedReactions: ['🎉'] },
        actor: other,
        at: AT,
      })
      .thenEmits([
        { type: 'CommentReplyEdited', data: { ...reply, body: doc('No'), mentions: [], editedAt: ISO } },
        { type: 'CommentReplyReactionAdded', data: { ...reply, emoji: '🎉', userId: 'u2', reactedAt: ISO } },
      ]);
    comment
      .given([created, replied])
      .when({ type: 'DeleteReply', place, replyId: 'r1', actor: author, at: AT })
      .thenThrows('forbidden');
    const deleted: CommentEvent = { type: 'CommentReplyDeleted', data: { ...reply, deletedAt: ISO } };
    comment
      .given([created, replied])
      .when({ type: 'DeleteReply', place, replyId: 'r1', actor: admin, at: AT })
      .thenEmits([deleted]);
    comment
      .given([created, replied, deleted])
      .when({ type: 'DeleteReply', place, replyId: 'r1', actor: admin, at: AT })
      .thenThrows('not_found');
  });
});
