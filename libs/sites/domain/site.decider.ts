import { conflict, type Decider, decideBy, invalid, notFound } from '@app/platform/domain/decider';
import type { SiteCustomization } from './site-customization';

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
        /** Ids of the site's site spaces and sections: what its defaults may name. */
        siteSpaces: string[];
        siteSections: string[];
        /** Absent until set: GitBook's defaults apply. */
        customization?: SiteCustomization;
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
  | { type: 'SiteDeleted'; data: SiteRef & { deletedAt: string } };

export type SiteCommand =
  | (SiteRef & { type: 'CreateSite'; input: CreateSiteInput; at: number })
  | { type: 'UpdateSite'; organization: string; input: UpdateSiteInput; at: number }
  | { type: 'PublishSite'; organization: string; at: number }
  | { type: 'UnpublishSite'; organization: string; at: number }
  | { type: 'UpdateSiteCustomization'; organization: string; customization: SiteCustomization; at: number }
  | { type: 'DeleteSite'; organization: string; at: number };

const iso = (ms: number) => new Date(ms).toISOString();

function checkedTitle(title: string): string {
  if (title.trim().length < TITLE_MIN || title.length > TITLE_MAX) {
    throw invalid(`title must be ${TITLE_MIN} to ${TITLE_MAX} characters, not only spaces`);
  }
  return title;
}

function checkedBasename(basename: string): string {
  if (basename.trim().length === 0 || basename.length > BASENAME_MAX) {
    throw invalid(`basename must be 1 to ${BASENAME_MAX} characters, not only spaces`);
  }
  return basename;
}

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
  if (input.defaultSiteSpace !== undefined) {
    if (!site.siteSpaces.includes(input.defaultSiteSpace))
      throw invalid(`defaultSiteSpace: the site has no site space ${input.defaultSiteSpace}`);
    out.defaultSiteSpace = input.defaultSiteSpace;
  }
  if (input.defaultSiteSection !== undefined) {
    if (!site.siteSections.includes(input.defaultSiteSection))
      throw invalid(`defaultSiteSection: the site has no section ${input.defaultSiteSection}`);
    out.defaultSiteSection = input.defaultSiteSection;
  }
  if (input.proxy !== undefined) out.proxy = input.proxy === null ? undefined : checkedProxy(input.proxy);
  return out;
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
    return [{ type: 'SiteCreated', data }];
  },

  UpdateSite: (command, state) => {
    const site = live(state, command.organization);
    const settings = wanted(command.input, site);
    const changes: Partial<SiteSettings> = {};
    for (const key of Object.keys(settings) as (keyof SiteSettings)[]) {
      if (!same(settings[key], site[key])) Object.assign(changes, { [key]: settings[key] });
    }
    if (Object.keys(changes).length === 0) return [];
    const data = { ...refOf(site), changes: nullsForRemoved(changes), updatedAt: iso(command.at) };
    return [{ type: 'SiteUpdated', data }];
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

  DeleteSite: (command, state) => {
    const site = live(state, command.organization);
    return [{ type: 'SiteDeleted', data: { ...refOf(site), deletedAt: iso(command.at) } }];
  },
};

/** Changes with a removed (undefined) setting as null, the value stored events can hold. */
function nullsForRemoved(changes: Partial<SiteSettings>): SiteChanges {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(changes)) out[key] = value === undefined ? null : value;
  return out as SiteChanges;
}

/** Applies changes; a null one removes the setting. */
export function applyChanges<T extends object>(target: T, changes: SiteChanges): T {
  const out = { ...target } as Record<string, unknown>;
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) delete out[key];
    else out[key] = value;
  }
  return out as T;
}

/** A docs site of an organization: its settings, published or not, until deleted. */
export const siteDecider: Decider<SiteCommand, SiteEvent, SiteState> = {
  initialState: { status: 'none' },

  decide: decideBy<SiteCommand, SiteEvent, SiteState>(decisions),

  evolve(state, event) {
    switch (event.type) {
      case 'SiteCreated': {
        const { createdAt: _c, ...facts } = event.data;
        return { status: 'active', ...facts, published: false, siteSpaces: [], siteSections: [] };
      }
      case 'SiteUpdated':
        return state.status === 'active' ? applyChanges(state, event.data.changes) : state;
      case 'SitePublished':
        return state.status === 'active' ? { ...state, published: true } : state;
      case 'SiteUnpublished':
        return state.status === 'active' ? { ...state, published: false } : state;
      case 'SiteCustomizationUpdated':
        return state.status === 'active' ? { ...state, customization: event.data.customization } : state;
      case 'SiteDeleted':
        return state.status === 'active' ? { status: 'deleted', ...refOf(state) } : state;
    }
  },
};

export const siteStream = (siteId: string) => `site-${siteId}`;
