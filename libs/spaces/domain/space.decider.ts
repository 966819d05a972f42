import {
  conflict,
  DAY_MS,
  type Decider,
  type Decisions,
  decideBy,
  invalid,
  notFound,
} from '@app/platform/domain/decider';
import type { DefaultLevel } from '@app/platform/domain/roles';
import { isSpaceLanguage, SPACE_LANGUAGES, type SpaceLanguage } from './language';
import type { MergeRulesConfiguration } from './merge-rules';

/** Deleted spaces can be restored for this long, then they are purged. */
export const SPACE_RETENTION_MS = 7 * DAY_MS;

export type EditMode = 'live' | 'locked';
export type Visibility = 'public' | 'unlisted' | 'share-link' | 'visitor-auth' | 'in-collection' | 'private';

export interface SpaceSettings {
  title: string;
  emoji: string;
  editMode: EditMode;
  defaultLevel: DefaultLevel;
  /** Absent until set: the space is then read as English. */
  language?: SpaceLanguage;
  /**
   * URL of the space's icon (GitBook's `urls.icon`), absent or null for none. A space shows an icon or an
   * emoji: setting one removes the other.
   */
  icon?: string | null;
}

/** Settings an update may change; `mergeRules` absent from a space means `inherit`; a null icon removes it. */
export type SpaceChanges = Partial<SpaceSettings> & { mergeRules?: MergeRulesConfiguration };

export const ICON_MAX = 2048;

interface SpaceFacts extends SpaceSettings {
  mergeRules?: MergeRulesConfiguration;
  id: string;
  organization: string;
  parent: string | null;
  visibility: Visibility;
  revision: string;
}

export type SpaceState =
  | { status: 'none' }
  | ({ status: 'active' } & SpaceFacts)
  | ({ status: 'deleted'; deletedAt: string; purgeAfter: string } & SpaceFacts)
  | { status: 'purged'; id: string };

export type SpaceEvent =
  | {
      type: 'SpaceCreated';
      data: SpaceFacts & {
        position: number;
        createdAt: string;
        duplicatedFrom?: string;
        /**
         * The content root of the space's first revision: a duplicate's starts with the content of its
         * source's current revision. Absent: empty content.
         */
        root?: string;
      };
    }
  | { type: 'SpaceUpdated'; data: { spaceId: string; changes: SpaceChanges; updatedAt: string } }
  | { type: 'SpaceDeleted'; data: { spaceId: string; deletedAt: string; purgeAfter: string } }
  | { type: 'SpaceRestored'; data: { spaceId: string; restoredAt: string } }
  | { type: 'SpacePurged'; data: { spaceId: string; purgedAt: string } }
  | {
      type: 'SpaceMoved';
      data: { spaceId: string; parent: string | null; position: number; movedAt: string };
    }
  | {
      type: 'SpaceTransferred';
      data: {
        spaceId: string;
        fromOrganization: string;
        organization: string;
        parent: string | null;
        position: number;
        transferredAt: string;
      };
    };

export type SpaceCommand =
  | {
      type: 'CreateSpace';
      spaceId: string;
      organization: string;
      parent: string | null;
      settings: SpaceSettings;
      revision: string;
      position: number;
      at: number;
      duplicatedFrom?: string;
      /** The content the first revision holds (a duplicate's source's); absent: none. */
      root?: string;
    }
  | { type: 'UpdateSpace'; changes: SpaceChanges; at: number }
  | { type: 'DeleteSpace'; at: number }
  | { type: 'RestoreSpace'; at: number }
  | { type: 'PurgeSpace'; deletedAt: string; at: number }
  | { type: 'MoveSpace'; parent: string | null; position: number; at: number }
  | { type: 'TransferSpace'; organization: string; parent: string | null; position: number; at: number };

const iso = (ms: number) => new Date(ms).toISOString();

/** `in-collection` only makes sense inside a collection: a space moved to the top level becomes private. */
export function visibilityIn(parent: string | null, visibility: Visibility): Visibility {
  return parent === null && visibility === 'in-collection' ? 'private' : visibility;
}

function live(state: SpaceState): SpaceFacts & { status: 'active' } {
  if (state.status === 'none' || state.status === 'purged') throw notFound('Space not found');
  if (state.status === 'deleted') throw conflict('Space is deleted; restore it first');
  return state;
}

/** A language outside GitBook's list is refused here too, whoever sends the command. */
function checkLanguage(language: unknown): void {
  if (language !== undefined && !isSpaceLanguage(language))
    throw invalid(`language must be one of ${SPACE_LANGUAGES.join(', ')}`);
}

/** An icon is an http(s) URL (GitBook's `URL`: a URI of at most 2048 characters). */
function checkIcon(icon: unknown): void {
  if (icon === undefined || icon === null) return;
  let url: URL | undefined;
  try {
    url = new URL(String(icon));
  } catch {
    url = undefined;
  }
  if (typeof icon !== 'string' || icon.length > ICON_MAX || !url || !/^https?:$/.test(url.protocol))
    throw invalid(`icon must be an http(s) URL of at most ${ICON_MAX} characters, or null`);
}

/**
 * GitBook's update takes an emoji, an icon, or null for both (`oneOf`): a space shows one of them, so
 * setting one removes the other, and giving both is refused.
 */
function iconOrEmoji(changes: SpaceChanges): SpaceChanges {
  const { emoji, icon } = changes;
  checkIcon(icon);
  if (emoji && icon) throw invalid('emoji and icon: give one of them (the other is removed), not both');
  if (icon) return { ...changes, emoji: '' };
  if (emoji) return { ...changes, icon: null };
  return changes;
}

function changed(state: SpaceFacts, changes: SpaceChanges): SpaceChanges {
  const out: SpaceChanges = {};
  for (const key of Object.keys(changes) as (keyof SpaceChanges)[]) {
    const value = changes[key];
    // Merge rules are an object: compared by value, absent meaning `inherit`; no icon is null.
    const current =
      key === 'mergeRules'
        ? JSON.stringify(state.mergeRules ?? { type: 'inherit' })
        : key === 'icon'
          ? (state.icon ?? null)
          : state[key];
    if (value !== undefined && (key === 'mergeRules' ? JSON.stringify(value) : value) !== current)
      Object.assign(out, { [key]: value });
  }
  return out;
}

/** What each command decides. */
const decisions: Decisions<SpaceCommand, SpaceEvent, SpaceState> = {
  CreateSpace(command, state) {
    if (state.status !== 'none') throw conflict('Space already exists');
    checkLanguage(command.settings.language);
    checkIcon(command.settings.icon);
    return [
      {
        type: 'SpaceCreated',
        data: {
          id: command.spaceId,
          organization: command.organization,
          parent: command.parent,
          ...command.settings,
          visibility: command.parent ? 'in-collection' : 'private',
          revision: command.revision,
          position: command.position,
          createdAt: iso(command.at),
          ...(command.duplicatedFrom ? { duplicatedFrom: command.duplicatedFrom } : {}),
          ...(command.root ? { root: command.root } : {}),
        },
      },
    ];
  },

  UpdateSpace(command, state) {
    const space = live(state);
    checkLanguage(command.changes.language);
    const changes = changed(space, iconOrEmoji(command.changes));
    if (Object.keys(changes).length === 0) return [];
    return [{ type: 'SpaceUpdated', data: { spaceId: space.id, changes, updatedAt: iso(command.at) } }];
  },

  DeleteSpace(command, state) {
    if (state.status === 'deleted') return [];
    const space = live(state);
    return [
      {
        type: 'SpaceDeleted',
        data: {
          spaceId: space.id,
          deletedAt: iso(command.at),
          purgeAfter: iso(command.at + SPACE_RETENTION_MS),
        },
      },
    ];
  },

  RestoreSpace(command, state) {
    if (state.status === 'active') throw conflict('Space is not deleted');
    if (state.status !== 'deleted') throw notFound('Space not found');
    if (command.at > Date.parse(state.purgeAfter)) {
      throw conflict('Space was deleted more than 7 days ago and can no longer be restored');
    }
    return [{ type: 'SpaceRestored', data: { spaceId: state.id, restoredAt: iso(command.at) } }];
  },

  PurgeSpace(command, state) {
    // A purge scheduled for an earlier deletion (since restored) must not remove the space.
    if (state.status !== 'deleted' || state.deletedAt !== command.deletedAt) return [];
    if (command.at < Date.parse(state.purgeAfter))
      throw invalid('Space cannot be purged before its retention ends');
    return [{ type: 'SpacePurged', data: { spaceId: state.id, purgedAt: iso(command.at) } }];
  },

  MoveSpace(command, state) {
    const space = live(state);
    return [
      {
        type: 'SpaceMoved',
        data: {
          spaceId: space.id,
          parent: command.parent,
          position: command.position,
          movedAt: iso(command.at),
        },
      },
    ];
  },

  TransferSpace(command, state) {
    const space = live(state);
    return [
      {
        type: 'SpaceTransferred',
        data: {
          spaceId: space.id,
          fromOrganization: space.organization,
          organization: command.organization,
          parent: command.parent,
          position: command.position,
          transferredAt: iso(command.at),
        },
      },
    ];
  },
};

export const spaceDecider: Decider<SpaceCommand, SpaceEvent, SpaceState> = {
  initialState: { status: 'none' },

  decide: decideBy(decisions),

  evolve(state, event) {
    switch (event.type) {
      case 'SpaceCreated': {
        const { position: _p, createdAt: _c, duplicatedFrom: _d, root: _r, ...facts } = event.data;
        return { status: 'active', ...facts };
      }
      case 'SpaceUpdated':
        return state.status === 'active' ? { ...state, ...event.data.changes } : state;
      case 'SpaceDeleted':
        return state.status === 'active'
          ? {
              ...state,
              status: 'deleted',
              deletedAt: event.data.deletedAt,
              purgeAfter: event.data.purgeAfter,
            }
          : state;
      case 'SpaceRestored': {
        if (state.status !== 'deleted') return state;
        const { deletedAt: _d, purgeAfter: _p, ...rest } = state;
        return { ...rest, status: 'active' };
      }
      case 'SpacePurged':
        return state.status === 'none' ? state : { status: 'purged', id: state.id };
      case 'SpaceMoved':
        return state.status === 'active'
          ? {
              ...state,
              parent: event.data.parent,
              visibility: visibilityIn(event.data.parent, state.visibility),
            }
          : state;
      case 'SpaceTransferred':
        return state.status === 'active'
          ? {
              ...state,
              organization: event.data.organization,
              parent: event.data.parent,
              visibility: visibilityIn(event.data.parent, state.visibility),
            }
          : state;
      default:
        return state;
    }
  },
};

export const spaceStream = (spaceId: string) => `space-${spaceId}`;
