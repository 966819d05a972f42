import type { Document } from '@app/documents/document';
import { documents, type ProjectionContext, projection } from '@app/platform/projector/projection';
import { collectionName, type Doc } from '@app/platform/readstore/read-store.port';
import type { SpaceEvent } from '@app/spaces/domain/space.decider';
import type { CommentBody, CommentEvent, Reaction } from '../domain/comment.decider';
import type { PageAt } from '../domain/comment-target';

export type CommentStatus = 'open' | 'resolved';

/** A user who replied to a comment: how many replies they have on it, and when they last posted one. */
export interface Replier {
  userId: string;
  count: number;
  updatedAt: string;
}

export interface CommentDoc extends Doc {
  space: string;
  /** null for a comment on the space itself. */
  changeRequest: string | null;
  revision: string;
  page?: string;
  pageAt?: PageAt;
  node?: string;
  preview?: string;
  tableCell?: { record: string; definition: string };
  review?: string;
  body: Document;
  /** The body as Markdown, as written (see `CommentBody`); converted on reads when absent. */
  markdown?: string;
  postedBy: string;
  postedAt: string;
  editedAt?: string;
  status: CommentStatus;
  resolvedAt?: string;
  resolvedBy?: string;
  /** In the order they were given. */
  reactions: Reaction[];
  replies: number;
  repliers: Replier[];
  /** Revision of the comment's stream: its ETag. */
  streamRevision: number;
}

export interface CommentReplyDoc extends Doc {
  comment: string;
  space: string;
  changeRequest: string | null;
  body: Document;
  markdown?: string;
  postedBy: string;
  postedAt: string;
  editedAt?: string;
  reactions: Reaction[];
  streamRevision: number;
}

/** Who posted a comment or a reply, keyed `<comment or reply id>:<user id>`: they may delete it (`@OwnersMay`). */
export interface CommentAuthorDoc extends Doc {
  role: 'author';
}

export const COMMENTS = collectionName<CommentDoc>('comments');
export const COMMENT_REPLIES = collectionName<CommentReplyDoc>('comment_replies');
export const COMMENT_AUTHORS = collectionName<CommentAuthorDoc>('comment_authors');

export const authorKey = (id: string, userId: string) => `${id}:${userId}`;

const comments = documents(COMMENTS);
const replies = documents(COMMENT_REPLIES);

/** A doc with the body of an edit: its Markdown as the edit kept it, or none (then converted on reads). */
function edited<D extends { body: Document; markdown?: string }>(doc: D, edit: CommentBody): D {
  const { markdown: _before, ...rest } = doc;
  return {
    ...rest,
    body: edit.body,
    ...(edit.markdown !== undefined ? { markdown: edit.markdown } : {}),
  } as D;
}

const without = (reactions: Reaction[], emoji: string, userId: string) =>
  reactions.filter((r) => !(r.emoji === emoji && r.userId === userId));

/** `repliers` after one more reply by `userId` (delta 1) or one fewer (delta -1). */
function repliersAfter(repliers: Replier[], userId: string, delta: number, at: string | null): Replier[] {
  const before = repliers.find((r) => r.userId === userId);
  const count = (before?.count ?? 0) + delta;
  const others = repliers.filter((r) => r.userId !== userId);
  if (count <= 0) return others;
  return [...others, { userId, count, updatedAt: at ?? before?.updatedAt ?? '' }].sort((a, b) =>
    a.updatedAt.localeCompare(b.updatedAt),
  );
}

/** Removes a comment from the views, with its replies and their authors. */
async function forget(ctx: ProjectionContext, commentId: string): Promise<void> {
  const doc = await ctx.get(COMMENTS, commentId);
  for (const reply of await ctx.find(COMMENT_REPLIES, { comment: commentId })) {
    await ctx.delete(COMMENT_REPLIES, reply.id);
    await ctx.delete(COMMENT_AUTHORS, authorKey(reply.id, reply.postedBy));
  }
  if (doc) await ctx.delete(COMMENT_AUTHORS, authorKey(commentId, doc.postedBy));
  await ctx.delete(COMMENTS, commentId);
}

/** Comments and their replies; a deleted comment is gone with its replies, a purged space with its comments. */
export const commentProjection = projection<CommentEvent | SpaceEvent>(
  'comments',
  [
    { collection: COMMENTS, fields: ['space', 'changeRequest', 'postedAt'] },
    { collection: COMMENTS, fields: ['space', 'changeRequest', 'status', 'postedAt'] },
    { collection: COMMENTS, fields: ['space', 'changeRequest', 'page', 'postedAt'] },
    { collection: COMMENT_REPLIES, fields: ['comment', 'postedAt'] },
    { collection: COMMENT_REPLIES, fields: ['space', 'changeRequest', 'postedAt'] },
  ],
  {
    CommentCreated: async (e, ctx) => {
      const { commentId, organization: _o, spaceId, changeRequestId, mentions: _m, ...rest } = e.data;
      await ctx.put(COMMENTS, {
        id: commentId,
        space: spaceId,
        changeRequest: changeRequestId ?? null,
        ...rest,
        status: 'open',
        reactions: [],
        replies: 0,
        repliers: [],
        streamRevision: e.revision,
      });
      await ctx.put(COMMENT_AUTHORS, { id: authorKey(commentId, rest.postedBy), role: 'author' });
    },
    CommentEdited: comments.update(
      (e) => e.data.commentId,
      (doc, e) => ({ ...edited(doc, e.data), editedAt: e.data.editedAt, streamRevision: e.revision }),
    ),
    CommentResolved: comments.update(
      (e) => e.data.commentId,
      (doc, e) => ({
        ...doc,
        status: 'resolved',
        resolvedAt: e.data.resolvedAt,
        resolvedBy: e.data.resolvedBy,
        streamRevision: e.revision,
      }),
    ),
    CommentReopened: comments.update(
      (e) => e.data.commentId,
      (doc, e) => {
        const { resolvedAt: _a, resolvedBy: _b, ...open } = doc;
        return { ...open, status: 'open', streamRevision: e.revision };
      },
    ),
    CommentReactionAdded: comments.update(
      (e) => e.data.commentId,
      (doc, e) => {
        const { emoji, userId, reactedAt } = e.data;
        const reactions = [...without(doc.reactions, emoji, userId), { emoji, userId, reactedAt }];
        return { ...doc, reactions, streamRevision: e.revision };
      },
    ),
    CommentReactionRemoved: comments.update(
      (e) => e.data.commentId,
      (doc, e) => ({
        ...doc,
        reactions: without(doc.reactions, e.data.emoji, e.data.userId),
        streamRevision: e.revision,
      }),
    ),
    CommentDeleted: (e, ctx) => forget(ctx, e.data.commentId),
    SpacePurged: async (e, ctx) => {
      for (const comment of await ctx.find(COMMENTS, { space: e.data.spaceId }))
        await forget(ctx, comment.id);
    },
    CommentReplyCreated: async (e, ctx) => {
      const { commentId, replyId, spaceId, changeRequestId, body, markdown, postedBy, postedAt } = e.data;
      await ctx.put(COMMENT_REPLIES, {
        id: replyId,
        comment: commentId,
        space: spaceId,
        changeRequest: changeRequestId ?? null,
        body,
        ...(markdown !== undefined ? { markdown } : {}),
        postedBy,
        postedAt,
        reactions: [],
        streamRevision: e.revision,
      });
      await ctx.put(COMMENT_AUTHORS, { id: authorKey(replyId, postedBy), role: 'author' });
      await comments.change(ctx, commentId, (doc) => ({
        ...doc,
        replies: doc.replies + 1,
        repliers: repliersAfter(doc.repliers, postedBy, 1, postedAt),
        streamRevision: e.revision,
      }));
    },
    CommentReplyEdited: replies.update(
      (e) => e.data.replyId,
      (doc, e) => ({ ...edited(doc, e.data), editedAt: e.data.editedAt, streamRevision: e.revision }),
    ),
    CommentReplyReactionAdded: replies.update(
      (e) => e.data.replyId,
      (doc, e) => {
        const { emoji, userId, reactedAt } = e.data;
        const reactions = [...without(doc.reactions, emoji, userId), { emoji, userId, reactedAt }];
        return { ...doc, reactions, streamRevision: e.revision };
      },
    ),
    CommentReplyReactionRemoved: replies.update(
      (e) => e.data.replyId,
      (doc, e) => ({
        ...doc,
        reactions: without(doc.reactions, e.data.emoji, e.data.userId),
        streamRevision: e.revision,
      }),
    ),
    CommentReplyDeleted: async (e, ctx) => {
      const { commentId, replyId } = e.data;
      const reply = await ctx.get(COMMENT_REPLIES, replyId);
      if (!reply) return;
      await ctx.delete(COMMENT_REPLIES, replyId);
      await ctx.delete(COMMENT_AUTHORS, authorKey(replyId, reply.postedBy));
      await comments.change(ctx, commentId, (doc) => ({
        ...doc,
        replies: Math.max(0, doc.replies - 1),
        repliers: repliersAfter(doc.repliers, reply.postedBy, -1, null),
        streamRevision: e.revision,
      }));
    },
  },
  ['comments', 'comment_replies', 'comment_authors'],
);
