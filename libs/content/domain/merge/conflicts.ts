/** The two sides of a merge: `ours` is the revision merged into, `theirs` the one merged in. */
export type Side = 'ours' | 'theirs';

/**
 * Why a merge stopped. A merge that meets any conflict changes nothing and lists all of them, so that
 * the pages named can be shown side by side (both revisions stay readable as they were).
 */
export type PageConflict = { pageId: string } & PageConflictReason;

/**
 * - `edited-both`: both sides changed these fields of the page to different values;
 * - `moved-both`: both sides moved the page, to different places;
 * - `blocks`: both sides changed these blocks of the page's document differently (or moved them both);
 * - `deleted-edited`: one side deleted the page (or a page above it) while the other changed it;
 * - `added-both`: both sides created a page with this id, not the same;
 * - `orphaned`: the page's parent is gone: one side deleted it, the other put this page under it;
 * - `cycle`: the two sides' moves together put the page under itself;
 * - `slug-taken`: the page's slug is taken by another page of the same parent.
 */
export type PageConflictReason =
  | { reason: 'edited-both'; fields: string[] }
  | { reason: 'moved-both' }
  | { reason: 'blocks'; blocks: string[] }
  | { reason: 'deleted-edited'; deletedBy: Side }
  | { reason: 'added-both' }
  | { reason: 'orphaned'; parentId: string }
  | { reason: 'cycle' }
  | { reason: 'slug-taken'; slug: string; otherPageId: string };

export type FileConflict = { fileId: string } & (
  | { reason: 'edited-both'; fields: string[] }
  | { reason: 'deleted-edited'; deletedBy: Side }
  | { reason: 'added-both' }
);

export type ReusableContentConflict = { reusableContentId: string } & (
  | { reason: 'edited-both'; fields: string[] }
  | { reason: 'blocks'; blocks: string[] }
  | { reason: 'deleted-edited'; deletedBy: Side }
  | { reason: 'added-both' }
);

export type VariableConflict = { variable: string; reason: 'edited-both' };

export type MergeConflict = PageConflict | FileConflict | ReusableContentConflict | VariableConflict;

const subject = (c: MergeConflict): [number, string] =>
  'pageId' in c
    ? [0, c.pageId]
    : 'fileId' in c
      ? [1, c.fileId]
      : 'reusableContentId' in c
        ? [2, c.reusableContentId]
        : [3, c.variable];

/** Conflicts in one order whatever found them first: pages, files, reusable contents, variables, by id. */
export function sortConflicts(conflicts: MergeConflict[]): MergeConflict[] {
  const key = (c: MergeConflict) => {
    const [kind, id] = subject(c);
    return `${kind}\u0000${id}\u0000${c.reason}\u0000${JSON.stringify(c)}`;
  };
  const unique = new Map(conflicts.map((c) => [key(c), c]));
  return [...unique.keys()].sort().map((k) => unique.get(k) as MergeConflict);
}
