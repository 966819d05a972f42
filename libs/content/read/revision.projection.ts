import { EMPTY_ROOT } from '@app/documents/tree/content';
import type { Hash } from '@app/documents/tree/hash';
import { documents, projection } from '@app/platform/projector/projection';
import { collectionName, type Doc } from '@app/platform/readstore/read-store.port';
import type { SpaceEvent } from '@app/spaces/domain/space.decider';
import type { SpaceContentEvent } from '../domain/space-content.decider';

export type RevisionType = 'edits' | 'merge' | 'update';

/** One revision of a space's content: its content root and where it came from. Revisions never change. */
export interface RevisionDoc extends Doc {
  space: string;
  root: Hash;
  parents: string[];
  type: RevisionType;
  createdAt: string;
  /** The change request it was made in (edits, updates) or merged from (merges). */
  changeRequest: string | null;
}

export const REVISIONS = collectionName<RevisionDoc>('revisions');

const revisions = documents(REVISIONS);

/**
 * Every revision by id: a space's first one (empty, or a duplicate's with its source's content), each
 * change request edit, update and merge.
 */
export const revisionProjection = projection<SpaceEvent | SpaceContentEvent>(
  'revisions',
  [],
  {
    SpaceCreated: revisions.put(({ data: d }) => ({
      id: d.revision,
      space: d.id,
      root: d.root ?? EMPTY_ROOT,
      parents: [],
      type: 'edits',
      createdAt: d.createdAt,
      changeRequest: null,
    })),
    ChangeRequestContentUpdated: revisions.put(({ data: d }) =>
      revision(d, 'edits', [d.parent], d.updatedAt),
    ),
    ChangeRequestRebased: async (e, ctx) => {
      const d = e.data;
      // Only the base moved when the change request already held the space's content.
      if (d.parents.length > 1) await ctx.put(REVISIONS, revision(d, 'update', d.parents, d.updatedAt));
    },
    ChangeRequestMerged: revisions.put(({ data: d }) => revision(d, 'merge', d.parents, d.mergedAt)),
  },
  [REVISIONS],
);

function revision(
  d: { spaceId: string; changeRequestId: string; revision: { id: string; root: Hash } },
  type: RevisionType,
  parents: string[],
  createdAt: string,
): RevisionDoc {
  return {
    id: d.revision.id,
    space: d.spaceId,
    root: d.revision.root,
    parents,
    type,
    createdAt,
    changeRequest: d.changeRequestId,
  };
}
