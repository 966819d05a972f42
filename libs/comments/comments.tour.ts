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

  expect((await spaces.listCommentersInSpace(space)).data.items).toHaveLength(1);
  expect((await spaces.deleteCommentInSpace(space, comment.id)).status).toBe(205);
  expect((await spaces.listCommentsInSpace(space)).data.count).toBe(0);

  // A change request's, and who commented.
  const cr = (await spaces.createChangeRequest(space, { subject: 'Tour comments' })).data.id;
  const inCr = (await spaces.postCommentInChangeRequest(space, cr, { body: { markdown: 'On the change' } }))
    .data;
  expect((await spaces.listCommentsInChangeRequest(space, cr)).data.items.map((c) => c.id)).toEqual([
    inCr.id,
  ]);
  await spaces.updateCommentInChangeRequest(space, cr, inCr.id, { resolved: true });
  expect((await spaces.getCommentInChangeRequest(space, cr, inCr.id)).data.status).toBe('resolved');
  const crReply = (
    await spaces.postCommentReplyInChangeRequest(space, cr, inCr.id, { body: { markdown: 'Agreed' } })
  ).data;
  expect((await spaces.listCommentRepliesInChangeRequest(space, cr, inCr.id)).data.count).toBe(1);
  await spaces.updateCommentReplyInChangeRequest(space, cr, inCr.id, crReply.id, { addedReactions: ['🎉'] });
  expect(
    (await spaces.getCommentReplyInChangeRequest(space, cr, inCr.id, crReply.id)).data.reactions[0].count,
  ).toBe(1);
  expect((await spaces.listCommentersInChangeRequest(space, cr)).data.count).toBe(1);
  expect((await spaces.deleteCommentReplyInChangeRequest(space, cr, inCr.id, crReply.id)).status).toBe(205);
  expect((await spaces.deleteCommentInChangeRequest(space, cr, inCr.id)).status).toBe(205);
  expect((await spaces.listCommentersInChangeRequest(space, cr)).data.count).toBe(0);
};
