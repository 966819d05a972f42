import { conflict, type Decider, decideBy, invalid, notFound } from '@app/platform/domain/decider';
import { conditionProblem } from './adaptive-condition';
import { type AdaptiveJsonSchema, adaptiveSchemaProblem, DEFAULT_ADAPTIVE_SCHEMA } from './adaptive-schema';
import type { SiteCustomization } from './site-customization';
import {
  addGroup,
  addSection,
  allSiteSpaces,
  applyChanges,
  defaultOf,
  EMPTY_STRUCTURE,
  findSiteSpace,
  freePath,
  type GroupEntry,
  groupOf,
  groupsOf,
  levelIds,
  type Position,
  placeGroup,
  placeSection,
  placeSiteSpace,
  type SectionEntry,
  type SiteSpaceChanges,
  type SiteSpaceEntry,
  type Structure,
  siblingsIn,
  slug,
  targetIndex,
  topLevel,
  updateGroup,
  updateSection,
  updateSiteSpace,
  withoutGroup,
  withoutSection,
  withoutSiteSpace,
} from './site-structure';

/** GitBook's `SiteType`; a new site is `basic` unless it says otherwise. */
export const SITE_TYPES = [
  'basic',
  'premium',
  'ultimate',
  'sponsored',
  'legacy-basic',
  'legacy-premium',
] as const;
export type SiteType = (typeof SITE_TYPES)[number];

export const SITE_VISIBILITIES = ['public', 'unlisted', 'share-link', 'visitor-auth'] as const;
export type SiteVisibility = (typeof SITE_VISIBILITIES)[number];

/** Whether agents may read the site. */
export const AGENTS_CONTEXTS = ['excluded', 'included'] as const;
export type AgentsContext = (typeof AGENTS_CONTEXTS)[number];

export const TITLE_MIN = 2;
export const TITLE_MAX = 128;
export const BASENAME_MAX = 100;
export const PROXY_MAX = 512;
/** A host and a path below it (`company.com/docs`): where a proxy serves the site. */
export const PROXY_PATTERN = /^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(\/[\w-]+)+$/;

/** The settings of a site that an update changes field by field. */
export interface SiteSettings {
  title: string;
  type: SiteType;
  visibility: SiteVisibility;
  basename?: string;
  /** The proxy's origin (`company.com/docs`); absent, the site is served at its own URL. */
  proxy?: string;
  adaptiveContent: boolean;
  agentsContext: AgentsContext;
  defaultSiteSpace?: string;
  defaultSiteSection?: string;
}

/** What an update records: the settings it changes; a removed proxy is null (JSON keeps no undefined). */
export type SiteChanges = Omit<Partial<SiteSettings>, 'proxy'> & { proxy?: string | null };

export interface CreateSiteInput {
  title?: string;
  type?: SiteType;
  visibility?: SiteVisibility;
}

/** A space as the views show it when a command names it: whose it is, and its title (a path's source). */
export interface SpaceRef {
  id: string;
  organization: string;
  title: string;
}

/** A new site space: the id drawn for it and the space it publishes. */
export interface NewSiteSpace {
  siteSpaceId: string;
  space: SpaceRef;
}

export interface UpdateSiteSpaceInput {
  path?: string;
  space?: SpaceRef;
  /** A condition over the claims of the site's adaptive schema; null removes it. */
  condition?: string | null;
}

export interface UpdateSiteSectionInput {
  title?: string;
  path?: string;
  icon?: string | null;
  description?: string | null;
  defaultSiteSpace?: string;
  /** The group to move the section into; null takes it out of its group, to the top level. */
  group?: string | null;
  /** A condition over the claims of the site's adaptive schema; null removes it. */
  condition?: string | null;
}

/** What a section update records: a removed icon or description is null (its group moves it: `SiteSectionMoved`). */
export type SectionChanges = Omit<UpdateSiteSectionInput, 'defaultSiteSpace' | 'group'> & {
  defaultSiteSpace?: string;
};

export interface UpdateSiteSectionGroupInput {
  title?: string;
  icon?: string | null;
}

/** What a group update records: a removed icon is null. */
export type GroupChanges = UpdateSiteSectionGroupInput;

export const GROUP_TITLE_MAX = 100;

/** Why a site space left its site other than by a request: its space is gone from the organization. */
export type DetachReason = 'space-deleted' | 'space-transferred';

export const PATH_MAX = 100;
export const SECTION_DESCRIPTION_MAX = 256;
export const ICON_MAX = 50;

/** An update sets what it names; `proxy: null` removes the proxy. */
export interface UpdateSiteInput {
  title?: string;
  visibility?: SiteVisibility;
  basename?: string;
  adaptiveContent?: { enabled: boolean };
  agentsContext?: AgentsContext;
  defaultSiteSpace?: string;
  defaultSiteSection?: string;
  proxy?: string | null;
}

interface SiteRef {
  siteId: string;
  organization: string;
}

export type SiteState =
  | { status: 'none' }
  | (SiteRef &
      SiteSettings & {
        status: 'active';
        published: boolean;
        /** Its sections and site spaces, in order: what its defaults may name. */
        structure: Structure;
        /** Absent until set: GitBook's defaults apply. */
        customization?: SiteCustomization;
        /** Absent until set: no claim (`DEFAULT_ADAPTIVE_SCHEMA`). */
        adaptiveSchema?: AdaptiveJsonSchema;
      })
  | (SiteRef & { status: 'deleted' });

type Active = Extract<SiteState, { status: 'active' }>;

export type SiteEvent =
  | { type: 'SiteCreated'; data: SiteRef & SiteSettings & { createdAt: string } }
  | { type: 'SiteUpdated'; data: SiteRef & { changes: SiteChanges; updatedAt: string } }
  | { type: 'SitePublished'; data: SiteRef & { publishedAt: string } }
  | { type: 'SiteUnpublished'; data: SiteRef & { unpublishedAt: string } }
  | {
      type: 'SiteCustomizationUpdated';
      data: SiteRef & { customization: SiteCustomization; updatedAt: string };
    }
  | {
      type: 'SiteAdaptiveSchemaReplaced';
      data: SiteRef & { jsonSchema: AdaptiveJsonSchema; updatedAt: string };
    }
  | { type: 'SiteDeleted'; data: SiteRef & { deletedAt: string } }
  | {
      type: 'SiteSpaceAdded';
      /** Added at the end of its section's site spaces (`section`), or of the root's. */
      data: SiteRef & { siteSpace: SiteSpaceEntry; section?: string; addedAt: string };
    }
  | {
      type: 'SiteSpaceUpdated';
      data: SiteRef & { siteSpaceId: string; changes: SiteSpaceChanges; updatedAt: string };
    }
  | {
      type: 'SiteSpaceRemoved';
      /** `reason` when its space left the organization rather than a request removing it. */
      data: SiteRef & { siteSpaceId: string; spaceId: string; reason?: DetachReason; removedAt: string };
    }
  | {
      type: 'SiteSpaceMoved';
      /** Its index among the site spaces of `section` (or the root's) once placed. */
      data: SiteRef & { siteSpaceId: string; section?: string; index: number; movedAt: string };
    }
  | {
      type: 'SiteSectionAdded';
      /**
       * Added last (of the top level, or of its `group`), with its site spaces: a new one, or (`fromRoot`)
       * the root's when it is the first section.
       */
      data: SiteRef & { section: SectionEntry; group?: string; fromRoot?: true; addedAt: string };
    }
  | {
      type: 'SiteSectionUpdated';
      data: SiteRef & { sectionId: string; changes: SectionChanges; updatedAt: string };
    }
  | {
      type: 'SiteSectionRemoved';
      /** The site spaces that went with it. */
      data: SiteRef & { sectionId: string; siteSpaces: string[]; removedAt: string };
    }
  | {
      type: 'SiteSectionMoved';
      /** Its index among the sections of `group` (into it, or within it), or of the top level, once placed. */
      data: SiteRef & { sectionId: string; group?: string; index: number; movedAt: string };
    }
  | {
      type: 'SiteSectionGroupAdded';
      /** Added last to the top level, its sections taken from where they were. */
      data: SiteRef & { group: GroupEntry; addedAt: string };
    }
  | {
      type: 'SiteSectionGroupUpdated';
      data: SiteRef & { groupId: string; changes: GroupChanges; updatedAt: string };
    }
  | {
      type: 'SiteSectionGroupRemoved';
      /** The sections it held, which take its place at the top level. */
      data: SiteRef & { groupId: string; sections: string[]; removedAt: string };
    }
  | {
      type: 'SiteSectionGroupMoved';
      /** Its index among the top level's items once placed. */
      data: SiteRef & { groupId: string; index: number; movedAt: string };
    };

export type SiteCommand =
  | (SiteRef & { type: 'CreateSite'; input: CreateSiteInput; spaces?: NewSiteSpace[]; at: number })
  | { type: 'UpdateSite'; organization: string; input: UpdateSiteInput; at: number }
  | { type: 'PublishSite'; organization: string; at: number }
  | { type: 'UnpublishSite'; organization: string; at: number }
  | { type: 'UpdateSiteCustomization'; organization: string; customization: SiteCustomization; at: number }
  /** `jsonSchema` as sent: the decider checks it. */
  | { type: 'ReplaceSiteAdaptiveSchema'; organization: string; jsonSchema: unknown; at: number }
  | { type: 'DeleteSite'; organization: string; at: number }
  | (NewSiteSpace & { type: 'AddSiteSpace'; organization: string; sectionId?: string; at: number })
  | {
      type: 'UpdateSiteSpace';
      organization: string;
      siteSpaceId: string;
      input: UpdateSiteSpaceInput;
      at: number;
    }
  | { type: 'RemoveSiteSpace'; organization: string; siteSpaceId: string; at: number }
  | { type: 'MoveSiteSpace'; organization: string; siteSpaceId: string; position: Position; at: number }
  | (NewSiteSpace & {
      type: 'AddSiteSection';
      organization: string;
      sectionId: string;
      /** The id of the section that takes the root's site spaces when this is the site's first. */
      rootSectionId: string;
      title?: string;
      icon?: string;
      /** The group it is added to, at the end; absent, the top level. */
      groupId?: string;
      at: number;
    })
  | {
      type: 'UpdateSiteSection';
      organization: string;
      sectionId: string;
      input: UpdateSiteSectionInput;
      at: number;
    }
  | { type: 'RemoveSiteSection'; organization: string; sectionId: string; at: number }
  | { type: 'MoveSiteSection'; organization: string; sectionId: string; position: Position; at: number }
  | {
      type: 'AddSiteSectionGroup';
      organization: string;
      groupId: string;
      title: string;
      icon?: string;
      /** Sections of the site, each moved into the group, in this order. */
      sections: string[];
      at: number;
    }
  | {
      type: 'UpdateSiteSectionGroup';
      organization: string;
      groupId: string;
      input: UpdateSiteSectionGroupInput;
      at: number;
    }
  | { type: 'RemoveSiteSectionGroup'; organization: string; groupId: string; at: number }
  | { type: 'MoveSiteSectionGroup'; organization: string; groupId: string; position: Position; at: number }
  | { type: 'AddSectionToGroup'; organization: string; groupId: string; sectionId: string; at: number }
  | { type: 'RemoveSectionFromGroup'; organization: string; groupId: string; sectionId: string; at: number }
  /** From the log, not a request: the space left the organization, so its site spaces go. */
  | { type: 'DetachSpace'; spaceId: string; reason: DetachReason; at: number };

const iso = (ms: number) => new Date(ms).toISOString();

/** A text of `min` to `max` characters, not only spaces; refused naming its field otherwise. */
function checkedText(field: string, value: string, min: number, max: number): string {
  if (value.trim().length < min || value.length > max)
    throw invalid(`${field} must be ${min} to ${max} characters, not only spaces`);
  return value;
}

/** The title of a site or of a section. */
const checkedTitle = (title: string) => checkedText('title', title, TITLE_MIN, TITLE_MAX);
const checkedGroupTitle = (title: string) => checkedText('title', title, 1, GROUP_TITLE_MAX);
const checkedBasename = (basename: string) => checkedText('basename', basename, 1, BASENAME_MAX);
const checkedPath = (path: string) => checkedText('path', path, 1, PATH_MAX);

function checkedProxy(proxy: string): string {
  if (proxy.length > PROXY_MAX || !PROXY_PATTERN.test(proxy)) {
    throw invalid(`proxy must be a host and a path (company.com/docs) of at most ${PROXY_MAX} characters`);
  }
  return proxy;
}

const live = (state: SiteState, organization: string): Active => {
  if (state.status !== 'active' || state.organization !== organization) throw notFound('Site not found');
  return state;
};

const refOf = (state: SiteRef): SiteRef => ({ siteId: state.siteId, organization: state.organization });

/** The settings an update asks for, checked against the site (its defaults must be its own). */
function wanted(input: UpdateSiteInput, site: Active): Partial<SiteSettings> {
  const out: Partial<SiteSettings> = {};
  if (input.title !== undefined) out.title = checkedTitle(input.title);
  if (input.visibility !== undefined) out.visibility = input.visibility;
  if (input.basename !== undefined) out.basename = checkedBasename(input.basename);
  if (input.adaptiveContent !== undefined) out.adaptiveContent = input.adaptiveContent.enabled;
  if (input.agentsContext !== undefined) out.agentsContext = input.agentsContext;
  // With sections, the default site space is that of the default section (see `UpdateSite`).
  if (input.defaultSiteSpace !== undefined && site.structure.sections.length === 0) {
    if (!site.structure.siteSpaces.some((s) => s.id === input.defaultSiteSpace))
      throw invalid(`defaultSiteSpace: the site has no site space ${input.defaultSiteSpace}`);
    out.defaultSiteSpace = input.defaultSiteSpace;
  }
  if (input.defaultSiteSection !== undefined) {
    if (!site.structure.sections.some((s) => s.id === input.defaultSiteSection))
      throw invalid(`defaultSiteSection: the site has no section ${input.defaultSiteSection}`);
    out.defaultSiteSection = input.defaultSiteSection;
  }
  if (input.proxy !== undefined) out.proxy = input.proxy === null ? undefined : checkedProxy(input.proxy);
  return out;
}

/** The space, when it is the site's organization's (the same refusal as a space not found). */
function ownSpace(site: SiteRef, space: SpaceRef, field = 'spaceId'): SpaceRef {
  if (space.organization !== site.organization)
    throw invalid(`${field}: the organization has no space ${space.id}`);
  return space;
}

function siteSpaceOf(site: Active, siteSpaceId: string) {
  const found = findSiteSpace(site.structure, siteSpaceId);
  if (!found) throw notFound('Site space not found');
  return found;
}

function sectionOf(site: Active, sectionId: string): SectionEntry {
  const section = site.structure.sections.find((s) => s.id === sectionId);
  if (!section) throw notFound('Site section not found');
  return section;
}

function groupEntryOf(site: Active, groupId: string): GroupEntry {
  const group = groupsOf(site.structure).find((g) => g.id === groupId);
  if (!group) throw notFound('Site section group not found');
  return group;
}

/** A section named in a body: one the site does not have is bad input naming the field. */
function namedSection(site: Active, sectionId: string, field: string): SectionEntry {
  const section = site.structure.sections.find((s) => s.id === sectionId);
  if (!section) throw invalid(`${field}: the site has no section ${sectionId}`);
  return section;
}

/** Places a section at `index` of `group`'s sections, or of the top level: nothing when it is there already. */
function sectionPlaced(
  site: Active,
  sectionId: string,
  group: string | undefined,
  index: number,
  at: number,
): SiteEvent[] {
  const from = groupOf(site.structure, sectionId)?.id;
  if (group === from && levelIds(site.structure, from).indexOf(sectionId) === index) return [];
  const data = { ...refOf(site), sectionId, ...(group !== undefined ? { group } : {}), index };
  return [{ type: 'SiteSectionMoved', data: { ...data, movedAt: iso(at) } }];
}

/** Takes a section out of its group to the top level, just after the group; nothing when in none. */
function ungrouped(site: Active, sectionId: string, at: number): SiteEvent[] {
  const group = groupOf(site.structure, sectionId);
  if (!group) return [];
  return sectionPlaced(site, sectionId, undefined, topLevel(site.structure).indexOf(group.id) + 1, at);
}

const adaptiveSchemaOf = (site: Active) => site.adaptiveSchema ?? DEFAULT_ADAPTIVE_SCHEMA;

/** The change a condition asks for (undefined: none), checked against the site's adaptive schema. */
function conditionChange(site: Active, wanted: string | null | undefined, current: string | undefined) {
  if (wanted === undefined || wanted === (current ?? null)) return undefined;
  const problem = wanted === null ? null : conditionProblem(wanted, adaptiveSchemaOf(site));
  if (problem) throw invalid(problem);
  return wanted;
}

/** The conditions a site's sections and site spaces hold, each with what holds it. */
function conditionsIn(structure: Structure): { holder: string; condition: string }[] {
  return [
    ...structure.sections.map((s) => ({ holder: `site section ${s.id}`, condition: s.condition })),
    ...allSiteSpaces(structure).map(({ entry }) => ({
      holder: `site space ${entry.id}`,
      condition: entry.condition,
    })),
  ].filter((c): c is { holder: string; condition: string } => c.condition !== undefined);
}

/** A new site space at a free path among its siblings, made of its space's title. */
function newSiteSpace(siblings: readonly SiteSpaceEntry[], added: NewSiteSpace): SiteSpaceEntry {
  const path = freePath(
    slug(added.space.title),
    siblings.map((s) => s.path),
  );
  return { id: added.siteSpaceId, spaceId: added.space.id, path };
}

/** The index a move places an item at among its siblings; a pointer must be a sibling other than itself. */
function moveIndex(siblings: readonly string[], itemId: string, position: Position, field: string): number {
  const pointer = position.before ?? position.after;
  if (pointer === itemId) throw invalid(`${field}: an item cannot be placed next to itself`);
  const index = targetIndex(
    siblings.filter((id) => id !== itemId),
    position,
  );
  if (index === undefined) throw invalid(`${field}: ${pointer} is not an item of that level of the site`);
  return index;
}

/** Settings hold JSON values (absent ones undefined): two are the same when they serialize the same. */
const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

type Decisions = {
  [K in SiteCommand['type']]: (command: Extract<SiteCommand, { type: K }>, state: SiteState) => SiteEvent[];
};

const decisions: Decisions = {
  CreateSite: (command, state) => {
    if (state.status !== 'none') throw conflict('Site already exists');
    const { input } = command;
    const data = {
      ...refOf(command),
      title: checkedTitle(input.title ?? 'Untitled site'),
      type: input.type ?? 'basic',
      visibility: input.visibility ?? 'public',
      adaptiveContent: false,
      agentsContext: 'included' as const,
      createdAt: iso(command.at),
    };
    // Spaces named on creation are its root's first site spaces, in the order given.
    const added: SiteEvent[] = [];
    const siteSpaces: SiteSpaceEntry[] = [];
    for (const space of command.spaces ?? []) {
      const siteSpace = newSiteSpace(siteSpaces, {
        ...space,
        space: ownSpace(command, space.space, 'spaces'),
      });
      siteSpaces.push(siteSpace);
      added.push({ type: 'SiteSpaceAdded', data: { ...refOf(command), siteSpace, addedAt: data.createdAt } });
    }
    return [{ type: 'SiteCreated', data }, ...added];
  },

  UpdateSite: (command, state) => {
    const site = live(state, command.organization);
    const settings = wanted(command.input, site);
    const changes: Partial<SiteSettings> = {};
    for (const key of Object.keys(settings) as (keyof SiteSettings)[]) {
      if (!same(settings[key], site[key])) Object.assign(changes, { [key]: settings[key] });
    }
    const events: SiteEvent[] = [];
    if (Object.keys(changes).length > 0) {
      const data = { ...refOf(site), changes: nullsForRemoved(changes), updatedAt: iso(command.at) };
      events.push({ type: 'SiteUpdated', data });
    }
    const chosen = command.input.defaultSiteSpace;
    if (chosen !== undefined && site.structure.sections.length > 0) {
      // With sections the default site space is the default section's: recorded as that section's.
      const section = defaultOf(
        site.structure.sections,
        settings.defaultSiteSection ?? site.defaultSiteSection,
      );
      if (!section.siteSpaces.some((s) => s.id === chosen))
        throw invalid(`defaultSiteSpace: the site's default section has no site space ${chosen}`);
      if (section.defaultSiteSpace !== chosen) {
        const data = { ...refOf(site), sectionId: section.id, changes: { defaultSiteSpace: chosen } };
        events.push({ type: 'SiteSectionUpdated', data: { ...data, updatedAt: iso(command.at) } });
      }
    }
    return events;
  },

  PublishSite: (command, state) => {
    const site = live(state, command.organization);
    if (site.published) return [];
    return [{ type: 'SitePublished', data: { ...refOf(site), publishedAt: iso(command.at) } }];
  },

  UnpublishSite: (command, state) => {
    const site = live(state, command.organization);
    if (!site.published) return [];
    return [{ type: 'SiteUnpublished', data: { ...refOf(site), unpublishedAt: iso(command.at) } }];
  },

  UpdateSiteCustomization: (command, state) => {
    const site = live(state, command.organization);
    if (site.customization !== undefined && same(site.customization, command.customization)) return [];
    const data = { ...refOf(site), customization: command.customization, updatedAt: iso(command.at) };
    return [{ type: 'SiteCustomizationUpdated', data }];
  },

  ReplaceSiteAdaptiveSchema: (command, state) => {
    const site = live(state, command.organization);
    const problem = adaptiveSchemaProblem(command.jsonSchema);
    if (problem) throw invalid(problem);
    const jsonSchema = command.jsonSchema as AdaptiveJsonSchema;
    // The conditions the site holds keep naming claims it has.
    for (const { holder, condition } of conditionsIn(site.structure)) {
      const lost = conditionProblem(condition, jsonSchema);
      if (lost) throw invalid(`jsonSchema: the ${holder} would lose a claim it names (${lost})`);
    }
    if (site.adaptiveSchema !== undefined && same(site.adaptiveSchema, jsonSchema)) return [];
    const data = { ...refOf(site), jsonSchema, updatedAt: iso(command.at) };
    return [{ type: 'SiteAdaptiveSchemaReplaced', data }];
  },

  DeleteSite: (command, state) => {
    const site = live(state, command.organization);
    return [{ type: 'SiteDeleted', data: { ...refOf(site), deletedAt: iso(command.at) } }];
  },

  AddSiteSpace: (command, state) => {
    const site = live(state, command.organization);
    const { sections } = site.structure;
    // Without a section named: the default section's, or the root's when the site has none.
    let section: string | undefined;
    if (command.sectionId !== undefined) {
      if (!sections.some((s) => s.id === command.sectionId))
        throw invalid(`sectionId: the site has no section ${command.sectionId}`);
      section = command.sectionId;
    } else if (sections.length > 0) section = defaultOf(sections, site.defaultSiteSection).id;
    if (findSiteSpace(site.structure, command.siteSpaceId)) throw conflict('Site space already exists');
    const space = ownSpace(site, command.space);
    const siteSpace = newSiteSpace(siblingsIn(site.structure, section), { ...command, space });
    const data = { ...refOf(site), siteSpace, ...(section ? { section } : {}), addedAt: iso(command.at) };
    return [{ type: 'SiteSpaceAdded', data }];
  },

  UpdateSiteSpace: (command, state) => {
    const site = live(state, command.organization);
    const { entry, section } = siteSpaceOf(site, command.siteSpaceId);
    const changes: SiteSpaceChanges = {};
    const { path, space } = command.input;
    if (path !== undefined && path !== entry.path) {
      const taken = siblingsIn(site.structure, section).filter((s) => s.id !== entry.id);
      if (taken.some((s) => s.path === checkedPath(path)))
        throw invalid(`path: another site space of its level has the path ${path}`);
      changes.path = path;
    }
    if (space !== undefined && space.id !== entry.spaceId) changes.spaceId = ownSpace(site, space).id;
    const condition = conditionChange(site, command.input.condition, entry.condition);
    if (condition !== undefined) changes.condition = condition;
    if (Object.keys(changes).length === 0) return [];
    const data = { ...refOf(site), siteSpaceId: entry.id, changes, updatedAt: iso(command.at) };
    return [{ type: 'SiteSpaceUpdated', data }];
  },

  RemoveSiteSpace: (command, state) => {
    const site = live(state, command.organization);
    const { entry } = siteSpaceOf(site, command.siteSpaceId);
    const data = {
      ...refOf(site),
      siteSpaceId: entry.id,
      spaceId: entry.spaceId,
      removedAt: iso(command.at),
    };
    return [{ type: 'SiteSpaceRemoved', data }];
  },

  MoveSiteSpace: (command, state) => {
    const site = live(state, command.organization);
    const { entry, section: from } = siteSpaceOf(site, command.siteSpaceId);
    // A pointer to a site space of another section moves it into that section.
    const pointer = command.position.before ?? command.position.after;
    const at = pointer === undefined ? undefined : findSiteSpace(site.structure, pointer);
    if (pointer !== undefined && !at) throw invalid(`position: the site has no site space ${pointer}`);
    const section = at ? at.section : from;
    const siblings = siblingsIn(site.structure, section).map((s) => s.id);
    const index = moveIndex(siblings, entry.id, command.position, 'position');
    const current = siblingsIn(site.structure, from).findIndex((s) => s.id === entry.id);
    if (section === from && index === current) return [];
    const data = { ...refOf(site), siteSpaceId: entry.id, ...(section ? { section } : {}), index };
    return [{ type: 'SiteSpaceMoved', data: { ...data, movedAt: iso(command.at) } }];
  },

  AddSiteSection: (command, state) => {
    const site = live(state, command.organization);
    const { structure } = site;
    if (structure.sections.some((s) => s.id === command.sectionId))
      throw conflict('Site section already exists');
    const space = ownSpace(site, command.space);
    const events: SiteEvent[] = [];
    const paths: string[] = structure.sections.map((s) => s.path);
    const addedAt = iso(command.at);
    if (structure.sections.length === 0 && structure.siteSpaces.length > 0) {
      // The site's first section: its root site spaces become a section of their own, the default.
      const path = freePath(slug(site.title), paths);
      paths.push(path);
      const root: SectionEntry = {
        id: command.rootSectionId,
        title: site.title,
        path,
        ...(site.defaultSiteSpace !== undefined &&
        structure.siteSpaces.some((s) => s.id === site.defaultSiteSpace)
          ? { defaultSiteSpace: site.defaultSiteSpace }
          : {}),
        siteSpaces: structure.siteSpaces,
      };
      events.push({
        type: 'SiteSectionAdded',
        data: { ...refOf(site), section: root, fromRoot: true, addedAt },
      });
    }
    if (command.groupId !== undefined && !groupsOf(structure).some((g) => g.id === command.groupId))
      throw invalid(`siteSectionGroupId: the site has no section group ${command.groupId}`);
    const title = command.title === undefined ? space.title : checkedTitle(command.title);
    const section: SectionEntry = {
      id: command.sectionId,
      title,
      path: freePath(slug(title), paths),
      ...(command.icon !== undefined ? { icon: command.icon } : {}),
      siteSpaces: [newSiteSpace([], { ...command, space })],
    };
    const group = command.groupId !== undefined ? { group: command.groupId } : {};
    events.push({ type: 'SiteSectionAdded', data: { ...refOf(site), section, ...group, addedAt } });
    return events;
  },

  UpdateSiteSection: (command, state) => {
    const site = live(state, command.organization);
    const section = sectionOf(site, command.sectionId);
    const { input } = command;
    const changes: SectionChanges = {};
    if (input.title !== undefined && input.title !== section.title) changes.title = checkedTitle(input.title);
    if (input.path !== undefined && input.path !== section.path) {
      if (
        site.structure.sections.some((s) => s.id !== section.id && s.path === checkedPath(input.path ?? ''))
      )
        throw invalid(`path: another section of the site has the path ${input.path}`);
      changes.path = input.path;
    }
    if (input.icon !== undefined && input.icon !== (section.icon ?? null)) changes.icon = input.icon;
    if (input.description !== undefined && input.description !== (section.description ?? null))
      changes.description = input.description;
    if (input.defaultSiteSpace !== undefined && input.defaultSiteSpace !== section.defaultSiteSpace) {
      if (!section.siteSpaces.some((s) => s.id === input.defaultSiteSpace))
        throw invalid(`defaultSiteSpace: the section has no site space ${input.defaultSiteSpace}`);
      changes.defaultSiteSpace = input.defaultSiteSpace;
    }
    const condition = conditionChange(site, input.condition, section.condition);
    if (condition !== undefined) changes.condition = condition;
    const events: SiteEvent[] = [];
    if (Object.keys(changes).length > 0) {
      const data = { ...refOf(site), sectionId: section.id, changes, updatedAt: iso(command.at) };
      events.push({ type: 'SiteSectionUpdated', data });
    }
    if (input.group === null) events.push(...ungrouped(site, section.id, command.at));
    else if (input.group !== undefined) {
      const group = groupsOf(site.structure).find((g) => g.id === input.group);
      if (!group) throw invalid(`siteSectionGroupId: the site has no section group ${input.group}`);
      if (!group.sections.includes(section.id))
        events.push(...sectionPlaced(site, section.id, group.id, group.sections.length, command.at));
    }
    return events;
  },

  RemoveSiteSection: (command, state) => {
    const site = live(state, command.organization);
    const section = sectionOf(site, command.sectionId);
    const siteSpaces = section.siteSpaces.map((s) => s.id);
    const data = { ...refOf(site), sectionId: section.id, siteSpaces, removedAt: iso(command.at) };
    return [{ type: 'SiteSectionRemoved', data }];
  },

  MoveSiteSection: (command, state) => {
    const site = live(state, command.organization);
    const { structure } = site;
    const section = sectionOf(site, command.sectionId);
    // A pointer to a section of a group moves it into that group; to a top-level item, to the top level.
    const pointer = command.position.before ?? command.position.after;
    let level = groupOf(structure, section.id)?.id;
    if (pointer !== undefined && structure.sections.some((s) => s.id === pointer))
      level = groupOf(structure, pointer)?.id;
    else if (pointer !== undefined && groupsOf(structure).some((g) => g.id === pointer)) level = undefined;
    const index = moveIndex(levelIds(structure, level), section.id, command.position, 'position');
    return sectionPlaced(site, section.id, level, index, command.at);
  },

  AddSiteSectionGroup: (command, state) => {
    const site = live(state, command.organization);
    if (groupsOf(site.structure).some((g) => g.id === command.groupId))
      throw conflict('Site section group already exists');
    const sections = [...new Set(command.sections)];
    for (const id of sections) namedSection(site, id, 'sections');
    const group: GroupEntry = {
      id: command.groupId,
      title: checkedGroupTitle(command.title),
      ...(command.icon !== undefined ? { icon: command.icon } : {}),
      sections,
    };
    return [{ type: 'SiteSectionGroupAdded', data: { ...refOf(site), group, addedAt: iso(command.at) } }];
  },

  UpdateSiteSectionGroup: (command, state) => {
    const site = live(state, command.organization);
    const group = groupEntryOf(site, command.groupId);
    const { title, icon } = command.input;
    const changes: GroupChanges = {};
    if (title !== undefined && title !== group.title) changes.title = checkedGroupTitle(title);
    if (icon !== undefined && icon !== (group.icon ?? null)) changes.icon = icon;
    if (Object.keys(changes).length === 0) return [];
    const data = { ...refOf(site), groupId: group.id, changes, updatedAt: iso(command.at) };
    return [{ type: 'SiteSectionGroupUpdated', data }];
  },

  RemoveSiteSectionGroup: (command, state) => {
    const site = live(state, command.organization);
    const group = groupEntryOf(site, command.groupId);
    const data = { ...refOf(site), groupId: group.id, sections: group.sections, removedAt: iso(command.at) };
    return [{ type: 'SiteSectionGroupRemoved', data }];
  },

  MoveSiteSectionGroup: (command, state) => {
    const site = live(state, command.organization);
    const group = groupEntryOf(site, command.groupId);
    const top = topLevel(site.structure);
    const index = moveIndex(top, group.id, command.position, 'position');
    if (index === top.indexOf(group.id)) return [];
    const data = { ...refOf(site), groupId: group.id, index, movedAt: iso(command.at) };
    return [{ type: 'SiteSectionGroupMoved', data }];
  },

  AddSectionToGroup: (command, state) => {
    const site = live(state, command.organization);
    const group = groupEntryOf(site, command.groupId);
    const section = namedSection(site, command.sectionId, 'sectionId');
    if (group.sections.includes(section.id)) return [];
    return sectionPlaced(site, section.id, group.id, group.sections.length, command.at);
  },

  RemoveSectionFromGroup: (command, state) => {
    const site = live(state, command.organization);
    const group = groupEntryOf(site, command.groupId);
    if (!group.sections.includes(command.sectionId)) throw notFound('Site section not found in the group');
    return ungrouped(site, command.sectionId, command.at);
  },

  DetachSpace: (command, state) => {
    // A site deleted meanwhile keeps nothing to detach; the command repeats with one effect.
    if (state.status !== 'active') return [];
    const removedAt = iso(command.at);
    return allSiteSpaces(state.structure)
      .filter(({ entry }) => entry.spaceId === command.spaceId)
      .map(({ entry }) => ({
        type: 'SiteSpaceRemoved' as const,
        data: {
          ...refOf(state),
          siteSpaceId: entry.id,
          spaceId: entry.spaceId,
          reason: command.reason,
          removedAt,
        },
      }));
  },
};

/** Changes with a removed (undefined) setting as null, the value stored events can hold. */
function nullsForRemoved(changes: Partial<SiteSettings>): SiteChanges {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(changes)) out[key] = value === undefined ? null : value;
  return out as SiteChanges;
}

export { applyChanges };

/** A docs site of an organization: its settings, published or not, until deleted. */
export const siteDecider: Decider<SiteCommand, SiteEvent, SiteState> = {
  initialState: { status: 'none' },

  decide: decideBy<SiteCommand, SiteEvent, SiteState>(decisions),

  evolve(state, event) {
    switch (event.type) {
      case 'SiteCreated': {
        const { createdAt: _c, ...facts } = event.data;
        return { status: 'active', ...facts, published: false, structure: EMPTY_STRUCTURE };
      }
      case 'SiteUpdated':
        return state.status === 'active' ? applyChanges(state, event.data.changes) : state;
      case 'SitePublished':
        return state.status === 'active' ? { ...state, published: true } : state;
      case 'SiteUnpublished':
        return state.status === 'active' ? { ...state, published: false } : state;
      case 'SiteCustomizationUpdated':
        return state.status === 'active' ? { ...state, customization: event.data.customization } : state;
      case 'SiteAdaptiveSchemaReplaced':
        return state.status === 'active' ? { ...state, adaptiveSchema: event.data.jsonSchema } : state;
      case 'SiteDeleted':
        return state.status === 'active' ? { status: 'deleted', ...refOf(state) } : state;
      default:
        return state.status === 'active'
          ? { ...state, structure: evolveStructure(state.structure, event) }
          : state;
    }
  },
};

type StructureEvent = Extract<SiteEvent, { type: `SiteSpace${string}` | `SiteSection${string}` }>;

/** The structure after one of its events: what the decider's state and the projection's views both follow. */
export function evolveStructure(structure: Structure, event: StructureEvent): Structure {
  switch (event.type) {
    case 'SiteSpaceAdded': {
      const { siteSpace, section } = event.data;
      return placeSiteSpace(structure, siteSpace, section, siblingsIn(structure, section).length);
    }
    case 'SiteSpaceUpdated':
      return updateSiteSpace(structure, event.data.siteSpaceId, event.data.changes);
    case 'SiteSpaceRemoved':
      return withoutSiteSpace(structure, event.data.siteSpaceId);
    case 'SiteSpaceMoved': {
      const found = findSiteSpace(structure, event.data.siteSpaceId);
      return found ? placeSiteSpace(structure, found.entry, event.data.section, event.data.index) : structure;
    }
    case 'SiteSectionAdded':
      return addSection(structure, event.data.section, event.data.group);
    case 'SiteSectionUpdated':
      return updateSection(structure, event.data.sectionId, (section) =>
        applyChanges(section, event.data.changes),
      );
    case 'SiteSectionRemoved':
      return withoutSection(structure, event.data.sectionId);
    case 'SiteSectionMoved': {
      const { sectionId, group, index } = event.data;
      return structure.sections.some((s) => s.id === sectionId)
        ? placeSection(structure, sectionId, group, index)
        : structure;
    }
    case 'SiteSectionGroupAdded':
      return addGroup(structure, event.data.group);
    case 'SiteSectionGroupUpdated':
      return updateGroup(structure, event.data.groupId, (group) => applyChanges(group, event.data.changes));
    case 'SiteSectionGroupRemoved':
      return withoutGroup(structure, event.data.groupId);
    case 'SiteSectionGroupMoved':
      return groupsOf(structure).some((g) => g.id === event.data.groupId)
        ? placeGroup(structure, event.data.groupId, event.data.index)
        : structure;
  }
}

export const siteStream = (siteId: string) => `site-${siteId}`;
