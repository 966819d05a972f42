/**
 * The structure of a docs site: its sections in order, each with its site spaces in order, or its site
 * spaces in order when it has no sections. Pure functions over plain values, shared by the site's
 * decider (its state) and its projection (the view), so both place every item the same way.
 */

/** A space published in a site, at a path of its own. */
export interface SiteSpaceEntry {
  id: string;
  spaceId: string;
  path: string;
  /** Adaptive content: shown to the visitors for whom it holds (`libs/sites/domain/adaptive-condition.ts`). */
  condition?: string;
}

/** What a site space update records: a removed condition is null. */
export type SiteSpaceChanges = Partial<Omit<SiteSpaceEntry, 'id' | 'condition'>> & {
  condition?: string | null;
};

/** A section of a site: its site spaces (variants) and the one shown first. */
export interface SectionEntry {
  id: string;
  title: string;
  path: string;
  icon?: string;
  description?: string;
  /** Absent (or no longer one of its site spaces): its first site space is its default. */
  defaultSiteSpace?: string;
  /** Adaptive content, as a site space's. */
  condition?: string;
  siteSpaces: SiteSpaceEntry[];
}

/** Site spaces at the root while the site has no sections; in its sections once it has one. */
export interface Structure {
  siteSpaces: SiteSpaceEntry[];
  sections: SectionEntry[];
}

/** Where an item goes among its siblings: before one, after one, or (neither) at the end. */
export interface Position {
  before?: string;
  after?: string;
}

/** The job that detaches a space gone from its organization from the sites publishing it. */
export const DETACH_JOB = 'site.detach-space';

export const EMPTY_STRUCTURE: Structure = { siteSpaces: [], sections: [] };

/** The index an item goes to among `ids` (the siblings without it); undefined when a pointer is not one of them. */
export function targetIndex(ids: readonly string[], position: Position): number | undefined {
  if (position.before !== undefined) {
    const at = ids.indexOf(position.before);
    return at < 0 ? undefined : at;
  }
  if (position.after !== undefined) {
    const at = ids.indexOf(position.after);
    return at < 0 ? undefined : at + 1;
  }
  return ids.length;
}

/** `list` with `item` inserted at `index`. */
export function insertAt<T>(list: readonly T[], index: number, item: T): T[] {
  return [...list.slice(0, index), item, ...list.slice(index)];
}

/** Every site space of the site, in order, with the section holding it (absent at the root). */
export function allSiteSpaces(structure: Structure): { entry: SiteSpaceEntry; section?: string }[] {
  return [
    ...structure.siteSpaces.map((entry) => ({ entry })),
    ...structure.sections.flatMap((section) =>
      section.siteSpaces.map((entry) => ({ entry, section: section.id })),
    ),
  ];
}

export function findSiteSpace(structure: Structure, siteSpaceId: string) {
  return allSiteSpaces(structure).find(({ entry }) => entry.id === siteSpaceId);
}

/** The siblings of a site space: its section's site spaces, or the root's. */
export function siblingsIn(structure: Structure, section: string | undefined): SiteSpaceEntry[] {
  if (section === undefined) return structure.siteSpaces;
  return structure.sections.find((s) => s.id === section)?.siteSpaces ?? [];
}

function withSiblings(structure: Structure, section: string | undefined, siteSpaces: SiteSpaceEntry[]) {
  if (section === undefined) return { ...structure, siteSpaces };
  return {
    ...structure,
    sections: structure.sections.map((s) => (s.id === section ? { ...s, siteSpaces } : s)),
  };
}

export function withoutSiteSpace(structure: Structure, siteSpaceId: string): Structure {
  return {
    siteSpaces: structure.siteSpaces.filter((s) => s.id !== siteSpaceId),
    sections: structure.sections.map((section) => ({
      ...section,
      siteSpaces: section.siteSpaces.filter((s) => s.id !== siteSpaceId),
    })),
  };
}

/** Places a site space (moved or new) at `index` of a section's site spaces, or the root's. */
export function placeSiteSpace(
  structure: Structure,
  entry: SiteSpaceEntry,
  section: string | undefined,
  index: number,
): Structure {
  const rest = withoutSiteSpace(structure, entry.id);
  return withSiblings(rest, section, insertAt(siblingsIn(rest, section), index, entry));
}

/** Applies changes; a null one removes the field. */
export function applyChanges<T extends object>(target: T, changes: object): T {
  const out = { ...target } as Record<string, unknown>;
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) delete out[key];
    else out[key] = value;
  }
  return out as T;
}

export function updateSiteSpace(
  structure: Structure,
  siteSpaceId: string,
  change: SiteSpaceChanges,
): Structure {
  const update = (s: SiteSpaceEntry) => (s.id === siteSpaceId ? applyChanges(s, change) : s);
  return {
    siteSpaces: structure.siteSpaces.map(update),
    sections: structure.sections.map((section) => ({
      ...section,
      siteSpaces: section.siteSpaces.map(update),
    })),
  };
}

/** Adds a section at the end; the site spaces it holds leave the root (the first section takes them). */
export function addSection(structure: Structure, section: SectionEntry): Structure {
  const taken = new Set(section.siteSpaces.map((s) => s.id));
  return {
    siteSpaces: structure.siteSpaces.filter((s) => !taken.has(s.id)),
    sections: [...structure.sections, section],
  };
}

export function placeSection(structure: Structure, section: SectionEntry, index: number): Structure {
  const rest = structure.sections.filter((s) => s.id !== section.id);
  return { ...structure, sections: insertAt(rest, index, section) };
}

export function withoutSection(structure: Structure, sectionId: string): Structure {
  return { ...structure, sections: structure.sections.filter((s) => s.id !== sectionId) };
}

export function updateSection(
  structure: Structure,
  sectionId: string,
  update: (section: SectionEntry) => SectionEntry,
): Structure {
  return { ...structure, sections: structure.sections.map((s) => (s.id === sectionId ? update(s) : s)) };
}

/** The default among items: the chosen one while it is one of them, else the first. */
export function defaultOf<T extends { id: string }>(items: readonly T[], chosen: string | undefined) {
  return items.find((item) => item.id === chosen) ?? items[0];
}

/** A path made of a title: lower-case words joined by dashes, at most 100 characters. */
export function slug(title: string): string {
  const words = title
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return words.slice(0, 90) || 'untitled';
}

/** `path`, or `path-2`, `path-3`, … : the first that none of `taken` holds. */
export function freePath(path: string, taken: readonly string[]): string {
  if (!taken.includes(path)) return path;
  for (let n = 2; ; n += 1) if (!taken.includes(`${path}-${n}`)) return `${path}-${n}`;
}
