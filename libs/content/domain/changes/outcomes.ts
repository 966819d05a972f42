import type { PageOutcome } from './types';

/**
 * The outcome of each page a batch touches, told from whether it existed before its first touch and
 * whether it exists at the end: so a page created then updated stays created, created then deleted
 * drops out, updated then deleted is deleted, and deleted then restored is updated.
 */
export class Outcomes {
  private readonly pages = new Map<string, { before: boolean; now: boolean; ref?: string }>();

  created(page: string, ref?: string): void {
    this.touch(page, false, true);
    const entry = this.pages.get(page);
    if (entry && ref !== undefined) entry.ref = ref;
  }

  updated(page: string): void {
    this.touch(page, true, true);
  }

  deleted(page: string): void {
    this.touch(page, true, false);
  }

  list(): PageOutcome[] {
    return [...this.pages].flatMap(([page, { before, now, ref }]): PageOutcome[] => {
      if (!before)
        return now
          ? [ref === undefined ? { object: 'created_page', page } : { object: 'created_page', page, ref }]
          : [];
      return [{ object: now ? 'updated_page' : 'deleted_page', page }];
    });
  }

  private touch(page: string, existed: boolean, exists: boolean): void {
    const entry = this.pages.get(page);
    if (entry) entry.now = exists;
    else this.pages.set(page, { before: existed, now: exists });
  }
}
