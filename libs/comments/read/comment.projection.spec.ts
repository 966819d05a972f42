import type { Document } from '@app/documents/document';
import { givenProjection, recorderOf } from '@app/platform/projector/projection.testing';
import type { SpaceEvent } from '@app/spaces/domain/space.decider';
import { type CommentEvent, commentStream } from '../domain/comment.decider';
import { COMMENT_AUTHORS, COMMENT_REPLIES, COMMENTS, commentProjection } from './comment.projection';

const recorded = recorderOf<CommentEvent | SpaceEvent>();
const inStream = { stream: commentStream('c1') };
const on = { commentId: 'c1', organization: 'o1', spaceId: 's1' };
const body = { object: 'document', data: {}, nodes: [] } as unknown as Document;
const T1 = '2026-01-01T00:00:00.000Z';
const T2 = '2026-01-02T00:00:00.000Z';

const created = () =>
  recorded(
    'CommentCreated',
    { ...on, revision: 'r1', page: 'p1', body, mentions: [], postedBy: 'u1', postedAt: T1 },
    inStream,
  );
const reacted = (userId: string) =>
  recorded('CommentReactionAdded', { ...on, emoji: '👍', userId, reactedAt: T2 }, inStream);
const replied = (replyId: string, postedBy: string) =>
  recorded('CommentReplyCreated', { ...on, replyId, body, mentions: [], postedBy, postedAt: T2 }, inStream);

const comments = givenProjection(commentProjection);

describe('comment projection', () => {
  it("keeps a body's Markdown, and drops it for an edit logged without one", async () => {
    const withMarkdown = (markdown: string) => ({ body, markdown });
    const scenario = comments.given(
      recorded(
        'CommentCreated',
        { ...on, revision: 'r1', ...withMarkdown('A\n'), mentions: [], postedBy: 'u1', postedAt: T1 },
        inStream,
      ),
      recorded(
        'CommentReplyCreated',
        { ...on, replyId: 'a', ...withMarkdown('B\n'), mentions: [], postedBy: 'u2', postedAt: T2 },
        inStream,
      ),
      recorded(
        'CommentReplyEdited',
        { ...on, replyId: 'a', ...withMarkdown('C\n'), mentions: [], editedAt: T2 },
        inStream,
      ),
      recorded('CommentEdited', { ...on, body, mentions: [], editedAt: T2 }, inStream),
    );
    const [comment] = await scenario.documents(COMMENTS);
    expect(comment.body).toEqual(body);
    expect(comment).not.toHaveProperty('markdown');
    const [reply] = await scenario.documents(COMMENT_REPLIES);
    expect(reply).toMatchObject({ body, markdown: 'C\n' });
  });

  it('records a comment, its resolution, reactions and replies, and who may delete each', async () => {
    const scenario = comments.given(
      created(),
      reacted('u2'),
      reacted('u3'),
      recorded('CommentReactionRemoved', { ...on, emoji: '👍', userId: 'u2', removedAt: T2 }, inStream),
      recorded('CommentResolved', { ...on, resolvedBy: 'u2', resolvedAt: T2 }, inStream),
      replied('a', 'u2'),
      replied('b', 'u2'),
    );
    await scenario.thenDocuments(COMMENTS, [
      {
        id: 'c1',
        space: 's1',
        changeRequest: null,
        revision: 'r1',
        page: 'p1',
        body,
        postedBy: 'u1',
        postedAt: T1,
        status: 'resolved',
        resolvedAt: T2,
        resolvedBy: 'u2',
        reactions: [{ emoji: '👍', userId: 'u3', reactedAt: T2 }],
        replies: 2,
        repliers: [{ userId: 'u2', count: 2, updatedAt: T2 }],
        streamRevision: 6,
      },
    ]);
    await scenario.thenDocuments(COMMENT_AUTHORS, [
      { id: 'a:u2', role: 'author' },
      { id: 'b:u2', role: 'author' },
      { id: 'c1:u1', role: 'author' },
    ]);
  });

  it('reopens a comment, forgetting who resolved it', async () => {
    const scenario = comments.given(
      created(),
      recorded('CommentResolved', { ...on, resolvedBy: 'u2', resolvedAt: T2 }, inStream),
      recorded('CommentReopened', { ...on, reopenedBy: 'u1', reopenedAt: T2 }, inStream),
    );
    const [doc] = await scenario.documents(COMMENTS);
    expect(doc).toMatchObject({ status: 'open' });
    expect(doc).not.toHaveProperty('resolvedBy');
  });

  it('forgets a deleted reply, and a deleted comment with its replies', async () => {
    const one = comments.given(
      created(),
      replied('a', 'u2'),
      replied('b', 'u3'),
      recorded('CommentReplyDeleted', { ...on, replyId: 'a', deletedAt: T2 }, inStream),
    );
    expect((await one.documents(COMMENT_REPLIES)).map((r) => r.id)).toEqual(['b']);
    expect(await one.documents(COMMENTS)).toMatchObject([
      { replies: 1, repliers: [{ userId: 'u3', count: 1 }] },
    ]);
    const all = comments.given(
      created(),
      replied('a', 'u2'),
      recorded('CommentDeleted', { ...on, open: true, deletedAt: T2 }, inStream),
    );
    await all.thenDocuments(COMMENTS, []);
    await all.thenDocuments(COMMENT_REPLIES, []);
    await all.thenDocuments(COMMENT_AUTHORS, []);
  });

  it('forgets the comments of a purged space, and no other', async () => {
    const elsewhere = recorded(
      'CommentCreated',
      {
        ...on,
        commentId: 'c2',
        spaceId: 's2',
        revision: 'r1',
        body,
        mentions: [],
        postedBy: 'u1',
        postedAt: T1,
      },
      { stream: commentStream('c2') },
    );
    const purged = recorded('SpacePurged', { spaceId: 's1', purgedAt: T2 }, { stream: 'space-s1' });
    const scenario = comments.given(created(), replied('a', 'u2'), elsewhere, purged);
    expect((await scenario.documents(COMMENTS)).map((c) => c.id)).toEqual(['c2']);
    await scenario.thenDocuments(COMMENT_REPLIES, []);
    await scenario.thenDocuments(COMMENT_AUTHORS, [{ id: 'c2:u1', role: 'author' }]);
  });

  it('changes nothing when replayed, and rebuilds to the same views', async () => {
    const scenario = comments.given(created(), reacted('u2'), replied('a', 'u2'));
    await scenario.thenReplayChangesNothing();
    await scenario.thenRebuildMatches();
  });
});
