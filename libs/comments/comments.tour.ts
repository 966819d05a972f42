import type { FeatureTour } from '../../test/support/endpoint-tour';

/**
 * Every route of comments, for the endpoint tour (test/support/endpoint-tour.ts finds this file by its
 * name), through GitBook's client: each write checked by a following read, each 2xx body by its schema.
 */
export const tour: FeatureTour = async ({ api, org }) => {
  const space = (await api.orgs.createSpace(org, { title: 'Tour comments' })).data.id;
  const { spaces } = api;

  const comment = (await spaces.postCommentInSpace(space, { body: { markdown: 'Tour comment' } })).data;
  expect((await spaces.listCommentsInSpace(space)).data.items.map((c) => c.id)).toEqual([comment.id]);
  const resolved = await spaces.updateCommentInSpace(space, comment.id, {
    resolved: true,
    addedReactions: ['👍'],
  });
  expect(resolved.data).toMatchObject({ status: 'resolved', reactions: [{ emoji: '👍', count: 1 }] });
  expect((await spaces.getCommentInSpace(space, comment.id, { format: 'document' })).data.status).toBe(
    'resolved',
  );

  const reply = (
    await spaces.postCommentReplyInSpace(space, comment.id, { body: { markdown: 'Tour reply' } })
  ).data;
  expect((await spaces.listCommentRepliesInSpace(space, comment.id)).data.items.map((r) => r.id)).toEqual([
    reply.id,
  ]);
  await spaces.updateCommentReplyInSpace(space, comment.id, reply.id, { body: { markdown: 'Edited reply' } });
  expect((await spaces.getCommentReplyInSpace(space, comment.id, reply.id)).data.body).toEqual({
    markdown: 'Edited reply\n',
  });
  expect((await spaces.deleteCommentReplyInSpace(space, comment.id, reply.id)).status).toBe(205);
  expect((await spaces.getCommentInSpace(space, comment.id)).data.replies).toBe(0);

  expect((await spaces.deleteCommentInSpace(space, comment.id)).status).toBe(205);
  expect((await spaces.listCommentsInSpace(space)).data.count).toBe(0);
};
