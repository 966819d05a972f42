import { conflict, type Decider, decideBy, invalid, notFound } from '@app/platform/domain/decider';

/** GitBook's `ShareLinkName`: up to 50 characters, empty allowed. */
export const SHARE_LINK_NAME_MAX = 50;

export interface ShareLinkRef {
  shareLinkId: string;
  siteId: string;
  organization: string;
}

/** An update sets what it names. */
export interface UpdateShareLinkInput {
  name?: string;
  active?: boolean;
}

export type ShareLinkState =
  | { status: 'none' }
  | (ShareLinkRef & { status: 'live'; name: string; active: boolean; keyHash: string })
  | (ShareLinkRef & { status: 'deleted' });

type Live = Extract<ShareLinkState, { status: 'live' }>;

/**
 * `keyHash` is the hash of the link's key (never the key): what a visitor's key is looked up by. A link
 * is active from its creation.
 */
export type ShareLinkEvent =
  | { type: 'ShareLinkCreated'; data: ShareLinkRef & { name: string; keyHash: string; createdAt: string } }
  | { type: 'ShareLinkRenamed'; data: ShareLinkRef & { name: string; renamedAt: string } }
  | { type: 'ShareLinkActivated'; data: ShareLinkRef & { activatedAt: string } }
  | { type: 'ShareLinkDeactivated'; data: ShareLinkRef & { deactivatedAt: string } }
  | { type: 'ShareLinkDeleted'; data: ShareLinkRef & { deletedAt: string } };

/** The site a link is managed through: a link of another site (or organization) is not found there. */
interface Place {
  siteId: string;
  organization: string;
}

export type ShareLinkCommand =
  | (ShareLinkRef & { type: 'CreateShareLink'; name: string; keyHash: string; at: number })
  | (Place & { type: 'UpdateShareLink'; input: UpdateShareLinkInput; at: number })
  | (Place & { type: 'DeleteShareLink'; at: number });

const iso = (ms: number) => new Date(ms).toISOString();

function checkedName(name: string): string {
  if (name.length > SHARE_LINK_NAME_MAX)
    throw invalid(`name must be at most ${SHARE_LINK_NAME_MAX} characters`);
  return name;
}

const live = (state: ShareLinkState, place: Place): Live => {
  if (state.status !== 'live' || state.organization !== place.organization || state.siteId !== place.siteId)
    throw notFound('Share link not found');
  return state;
};

const refOf = (s: ShareLinkRef): ShareLinkRef => ({
  shareLinkId: s.shareLinkId,
  siteId: s.siteId,
  organization: s.organization,
});

type Decisions = {
  [K in ShareLinkCommand['type']]: (
    command: Extract<ShareLinkCommand, { type: K }>,
    state: ShareLinkState,
  ) => ShareLinkEvent[];
};

const decisions: Decisions = {
  CreateShareLink: (command, state) => {
    if (state.status !== 'none') throw conflict('Share link already exists');
    const data = {
      ...refOf(command),
      name: checkedName(command.name),
      keyHash: command.keyHash,
      createdAt: iso(command.at),
    };
    return [{ type: 'ShareLinkCreated', data }];
  },

  UpdateShareLink: (command, state) => {
    const link = live(state, command);
    const { name, active } = command.input;
    const at = iso(command.at);
    const events: ShareLinkEvent[] = [];
    if (name !== undefined && checkedName(name) !== link.name) {
      events.push({ type: 'ShareLinkRenamed', data: { ...refOf(link), name, renamedAt: at } });
    }
    if (active === true && !link.active) {
      events.push({ type: 'ShareLinkActivated', data: { ...refOf(link), activatedAt: at } });
    }
    if (active === false && link.active) {
      events.push({ type: 'ShareLinkDeactivated', data: { ...refOf(link), deactivatedAt: at } });
    }
    return events;
  },

  DeleteShareLink: (command, state) => {
    const link = live(state, command);
    return [{ type: 'ShareLinkDeleted', data: { ...refOf(link), deletedAt: iso(command.at) } }];
  },
};

/** A share link of a docs site: its name, whether its key opens the site, until deleted. */
export const shareLinkDecider: Decider<ShareLinkCommand, ShareLinkEvent, ShareLinkState> = {
  initialState: { status: 'none' },

  decide: decideBy<ShareLinkCommand, ShareLinkEvent, ShareLinkState>(decisions),

  evolve(state, event) {
    switch (event.type) {
      case 'ShareLinkCreated': {
        const { createdAt: _c, ...facts } = event.data;
        return { status: 'live', ...facts, active: true };
      }
      case 'ShareLinkRenamed':
        return state.status === 'live' ? { ...state, name: event.data.name } : state;
      case 'ShareLinkActivated':
        return state.status === 'live' ? { ...state, active: true } : state;
      case 'ShareLinkDeactivated':
        return state.status === 'live' ? { ...state, active: false } : state;
      case 'ShareLinkDeleted':
        return state.status === 'live' ? { status: 'deleted', ...refOf(state) } : state;
    }
  },
};

export const shareLinkStream = (shareLinkId: string) => `share-link-${shareLinkId}`;

/** Whether a link's key opens its site now: created, active, not deleted. */
export const opens = (state: ShareLinkState): boolean => state.status === 'live' && state.active;
