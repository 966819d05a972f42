import type { ChangeRequest, Space } from '@gitbook/api';
import type { TestApp } from './app-harness';

/** One change of a content edit (`POST …/change-requests/:id/content`), as GitBook's client sends it. */
export type Change = Record<string, unknown>;

/** A reply's error message: what a refusal says (`{ error: { message } }`). */
export const messageOf = (body: unknown) => (body as { error: { message: string } }).error.message;

/** A change inserting a page of `markdown` (with `extra`: `slug`, `into`, …). */
export const insertPage = (title: string, markdown: string, extra: Change = {}): Change => ({
  operation: 'insert_page',
  title,
  document: { markdown },
  ...extra,
});

/**
 * What the change request suites set up on the app of their `describe` (`useTestApp`), as its
 * bootstrap user: a space of its organization, a change request of it, and content edits in one;
 * each asserts it succeeded.
 */
export function changeRequestSetup(current: () => TestApp) {
  return {
    newSpace: async (title = 'Docs') => {
      const app = current();
      return (await app.api().orgs.createSpace(app.organizationId, { title })).data as Space;
    },

    newChangeRequest: async (space: string, subject = 'Edit') => {
      const reply = await current().api().spaces.createChangeRequest(space, { subject });
      expect(reply.status).toBe(201);
      return reply.data;
    },

    /** Applies `changes` in the change request, answering the change request and what each change made. */
    edit: async (space: string, cr: string, changes: Change[]) => {
      const reply = await current().http(
        'POST',
        `/v1/spaces/${space}/change-requests/${cr}/content?compat=false`,
        { body: { changes } },
      );
      expect(reply.status).toBe(200);
      return reply.body as {
        changeRequest: ChangeRequest;
        changes: { object: string; page: { id: string } }[];
      };
    },
  };
}
