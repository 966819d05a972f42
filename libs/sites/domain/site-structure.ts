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

/** A group of sections: a top-level item of the site holding some of its sections, in order. */
export interface GroupEntry {
  id: string;
  title: string;
  icon?: string;
  /** The ids of its sections, in order; a section is in one group at most. */
  sections: string[];
}

/**
 * Site spaces at the root while the site has no sections; in its sections once it has one. With groups,
 * `top` orders the top level (the sections outside any group, and the groups) and `sections` holds every
 * section in the order the site shows them (a group's sections in its place); without, both are absent
 * and the top level is `sections`.
 */
export interface Structure {
  siteSpaces: SiteSpaceEntry[];
  sections: SectionEntry[];
  groups?: GroupEntry[];
  top?: string[];
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
    ...structure,
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
    ...structure,
    siteSpaces: structure.siteSpaces.map(update),
    sections: structure.sections.map((section) => ({
      ...section,
      siteSpaces: section.siteSpaces.map(update),
    })),
  };
}

export const groupsOf = (structure: Structure): GroupEntry[] => structure.groups ?? [];

/** The ids of the top level, in order: the sections outside any group, and the groups. */
export function topLevel(structure: Structure): string[] {
  return structure.top ?? structure.sections.map((s) => s.id);
}

/** The group holding a section; undefined when it is at the top level (or not the site's). */
export function groupOf(structure: Structure, sectionId: string): GroupEntry | undefined {
  return groupsOf(structure).find((g) => g.sections.includes(sectionId));
}

/**
 * The ids among which an item of the sections' levels is placed: the group's sections, or the top level's
 * (`group` undefined).
 */
export function levelIds(structure: Structure, group: string | undefined): string[] {
  if (group === undefined) return topLevel(structure);
  return groupsOf(structure).find((g) => g.id === group)?.sections ?? [];
}

/**
 * The structure with this top level and these groups, its sections put in the order they show; without
 * groups, the plain shape of a site that never had one.
 */
function arranged(structure: Structure, top: readonly string[], groups: readonly GroupEntry[]): Structure {
  const byId = new Map(structure.sections.map((s) => [s.id, s]));
  const members = new Map(groups.map((g) => [g.id, g.sections]));
  const sections = top.flatMap((id) => members.get(id) ?? [id]).flatMap((id) => byId.get(id) ?? []);
  const { groups: _groups, top: _top, ...rest } = structure;
  if (groups.length === 0) return { ...rest, sections };
  return { ...rest, sections, groups: [...groups], top: [...top] };
}

/** The structure with a section (or group) out of every level: the top level's and the groups'. */
function unplaced(structure: Structure, id: string): { top: string[]; groups: GroupEntry[] } {
  return {
    top: topLevel(structure).filter((x) => x !== id),
    groups: groupsOf(structure).map((g) => ({ ...g, sections: g.sections.filter((x) => x !== id) })),
  };
}

/**
 * Adds a section at the end of the top level, or of a group's sections; the site spaces it holds leave the
 * root (the first section takes them).
 */
export function addSection(structure: Structure, section: SectionEntry, group?: string): Structure {
  const taken = new Set(section.siteSpaces.map((s) => s.id));
  const next = {
    ...structure,
    siteSpaces: structure.siteSpaces.filter((s) => !taken.has(s.id)),
    sections: [...structure.sections, section],
  };
  return placeSection(next, section.id, group, levelIds(structure, group).length);
}

/** Places a section at `index` of a group's sections, or of the top level (`group` undefined). */
export function placeSection(
  structure: Structure,
  sectionId: string,
  group: string | undefined,
  index: number,
): Structure {
  const { top, groups } = unplaced(structure, sectionId);
  if (group === undefined || !groups.some((g) => g.id === group))
    return arranged(structure, insertAt(top, index, sectionId), groups);
  const into = groups.map((g) =>
    g.id === group ? { ...g, sections: insertAt(g.sections, index, sectionId) } : g,
  );
  return arranged(structure, top, into);
}

export function withoutSection(structure: Structure, sectionId: string): Structure {
  const { top, groups } = unplaced(structure, sectionId);
  return arranged(
    { ...structure, sections: structure.sections.filter((s) => s.id !== sectionId) },
    top,
    groups,
  );
}

/** Adds a group at the end of the top level; its sections leave where they were, into it. */
export function addGroup(structure: Structure, group: GroupEntry): Structure {
  const taken = new Set(group.sections);
  const top = [...topLevel(structure).filter((id) => !taken.has(id)), group.id];
  const groups = groupsOf(structure).map((g) => ({
    ...g,
    sections: g.sections.filter((id) => !taken.has(id)),
  }));
  return arranged(structure, top, [...groups, group]);
}

export function updateGroup(
  structure: Structure,
  groupId: string,
  update: (group: GroupEntry) => GroupEntry,
): Structure {
  const groups = groupsOf(structure).map((g) => (g.id === groupId ? update(g) : g));
  return arranged(structure, topLevel(structure), groups);
}

/** Removes a group; its sections take its place at the top level, in their order. */
export function withoutGroup(structure: Structure, groupId: string): Structure {
  const group = groupsOf(structure).find((g) => g.id === groupId);
  if (!group) return structure;
  const top = topLevel(structure).flatMap((id) => (id === groupId ? group.sections : [id]));
  return arranged(
    structure,
    top,
    groupsOf(structure).filter((g) => g.id !== groupId),
  );
}

/** Places a group at `index` of the top level. */
export function placeGroup(structure: Structure, groupId: string, index: number): Structure {
  const top = topLevel(structure).filter((id) => id !== groupId);
  return arranged(structure, insertAt(top, index, groupId), groupsOf(structure));
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
