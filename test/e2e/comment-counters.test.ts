import type { Comment } from '@gitbook/api';
import fc from 'fast-check';
import { addUser, useTestApp } from '../support/app-harness';

/**
 * One step of a random history: which comment (or reply) it acts on is a small index, taken modulo the
 * live ones, so that steps meet the same comments (resolved, then deleted; reopened twice; …).
 */
type Step =
  | { op: 'create'; inChangeRequest: boolean; by: number }
  | { op: 'reply'; at: number; by: number }
  | { op: 'resolve' | 'reopen' | 'delete'; at: number }
  | { op: 'react'; at: number; by: number; emoji: string; remove: boolean }
  | { op: 'deleteReply'; at: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ op: fc.constant('create' as const), inChangeRequest: fc.boolean(), by: fc.nat(1) }),
  fc.record({ op: fc.constant('reply' as const), at: fc.nat(3), by: fc.nat(1) }),
  fc.record({ op: fc.constantFrom('resolve' as const, 'reopen' as const, 'delete' as const), at: fc.nat(3) }),
  fc.record({
    op: fc.constant('react' as const),
    at: fc.nat(3),
    by: fc.nat(1),
    emoji: fc.constantFrom('👍', '🎉'),
    remove: fc.boolean(),
  }),
  fc.record({ op: fc.constant('deleteReply' as const), at: fc.nat(3) }),
);

describe('comment counters', () => {
  const current = useTestApp();

  it('the space and change request counters, and each comment`s replies, equal a count from scratch after any history', async () => {
    const app = current();
    const other = await addUser(app, { organizationId: app.organizationId, role: 'comment' });
    const tokens = [app.token, other.token];
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 30, size: 'max' }), async (steps) => {
        const api = (by = 0) => app.api(tokens[by]).spaces;
        const space = (await app.api().orgs.createSpace(app.organizationId, { title: 'Counted' })).data.id;
        const cr = (await api().createChangeRequest(space, { subject: 'Counted' })).data.id;
        /** The live comments, with where they are and their live replies. */
        const live: { id: string; cr: boolean; replies: string[] }[] = [];
        const pick = (at: number) => live[at % live.length];
        for (const s of steps) {
          if (s.op === 'create') {
            const body = { body: { markdown: 'c' } };
            const made: Comment = s.inChangeRequest
              ? (await api(s.by).postCommentInChangeRequest(space, cr, body)).data
              : (await api(s.by).postCommentInSpace(space, body)).data;
            live.push({ id: made.id, cr: s.inChangeRequest, replies: [] });
            continue;
          }
          if (live.length === 0) continue;
          const c = pick(s.at);
          // The administrator changes and deletes anything; anyone with `comment` replies, reacts and resolves.
          const base = c.cr
            ? `/v1/spaces/${space}/change-requests/${cr}/comments/${c.id}`
            : `/v1/spaces/${space}/comments/${c.id}`;
          const send = async (method: string, path: string, body?: unknown, by = 0) => {
            const reply = await app.http(method, path, { body, token: tokens[by] });
            expect(reply.status).toBeLessThan(300);
            return reply.body as { id: string };
          };
          if (s.op === 'reply')
            c.replies.push((await send('POST', `${base}/replies`, { body: { markdown: 'r' } }, s.by)).id);
          if (s.op === 'resolve') await send('PUT', base, { resolved: true });
          if (s.op === 'reopen') await send('PUT', base, { resolved: false });
          if (s.op === 'react')
            await send('PUT', base, { [s.remove ? 'removedReactions' : 'addedReactions']: [s.emoji] }, s.by);
          if (s.op === 'delete') {
            await send('DELETE', base);
            live.splice(live.indexOf(c), 1);
          }
          if (s.op === 'deleteReply' && c.replies.length > 0) {
            await send('DELETE', `${base}/replies/${c.replies.pop()}`);
          }
        }
        // From scratch: the open comments each list holds, and each comment's replies.
        const openInSpace = (await api().listCommentsInSpace(space, { status: 'open', limit: 1000 })).data;
        const openInCr = (await api().listCommentsInChangeRequest(space, cr, { status: 'open', limit: 1000 }))
          .data;
        expect((await api().getSpaceById(space)).data.comments).toBe(openInSpace.items.length);
        expect((await api().getChangeRequestById(space, cr)).data.comments).toBe(openInCr.items.length);
        const all = [
          ...(await api().listCommentsInSpace(space, { limit: 1000 })).data.items,
          ...(await api().listCommentsInChangeRequest(space, cr, { limit: 1000 })).data.items,
        ];
        expect(all.map((c) => c.id).sort()).toEqual(live.map((c) => c.id).sort());
        for (const comment of all) {
          const c = live.find((l) => l.id === comment.id);
          expect(comment.replies).toBe(c?.replies.length);
          const counted = new Map<string, number>();
          for (const r of comment.reactions) counted.set(r.emoji, r.users.length);
          for (const r of comment.reactions) expect(r.count).toBe(counted.get(r.emoji));
        }
      }),
      { numRuns: 25 },
    );
  }, 120_000);
});
