import {
  conflict,
  type Decider,
  type Decisions,
  decideBy,
  invalid,
  notFound,
} from '@app/platform/domain/decider';
import type { DefaultLevel } from '@app/platform/domain/roles';

export interface CollectionSettings {
  title: string;
  description: string | null;
  defaultLevel: DefaultLevel;
}

export type CollectionChanges = Partial<CollectionSettings>;

interface CollectionFacts extends CollectionSettings {
  id: string;
  organization: string;
  parent: string | null;
}

export type CollectionState =
  | { status: 'none' }
  | ({ status: 'active' } & CollectionFacts)
  | { status: 'deleted'; id: string };

/** What a collection holds when it is transferred: everything below it moves with it. */
export interface CollectionContents {
  collections: string[];
  spaces: string[];
}

export type CollectionEvent =
  | { type: 'CollectionCreated'; data: CollectionFacts & { position: number; createdAt: string } }
  | {
      type: 'CollectionUpdated';
      data: { collectionId: string; changes: CollectionChanges; updatedAt: string };
    }
  | {
      type: 'CollectionMoved';
      data: { collectionId: string; parent: string | null; position: number; movedAt: string };
    }
  | {
      type: 'CollectionTransferred';
      data: {
        collectionId: string;
        fromOrganization: string;
        organization: string;
        position: number;
        contents: CollectionContents;
        transferredAt: string;
      };
    }
  | {
      type: 'CollectionDeleted';
      data: { collectionId: string; organization: string; parent: string | null; deletedAt: string };
    };

export type CollectionCommand =
  | {
      type: 'CreateCollection';
      collectionId: string;
      organization: string;
      parent: string | null;
      settings: CollectionSettings;
      position: number;
      at: number;
    }
  | { type: 'UpdateCollection'; changes: CollectionChanges; at: number }
  | { type: 'MoveCollection'; parent: string | null; position: number; at: number }
  | {
      type: 'TransferCollection';
      organization: string;
      position: number;
      contents: CollectionContents;
      at: number;
    }
  | { type: 'DeleteCollection'; at: number };

const iso = (ms: number) => new Date(ms).toISOString();

function live(state: CollectionState): CollectionFacts {
  if (state.status !== 'active') throw notFound('Collection not found');
  return state;
}

/** What each command decides. */
const decisions: Decisions<CollectionCommand, CollectionEvent, CollectionState> = {
  CreateCollection(command, state) {
    if (state.status !== 'none') throw conflict('Collection already exists');
    return [
      {
        type: 'CollectionCreated',
        data: {
          id: command.collectionId,
          organization: command.organization,
          parent: command.parent,
          ...command.settings,
          position: command.position,
          createdAt: iso(command.at),
        },
      },
    ];
  },

  UpdateCollection(command, state) {
    const collection = live(state);
    const changes: CollectionChanges = {};
    for (const key of Object.keys(command.changes) as (keyof CollectionSettings)[]) {
      const value = command.changes[key];
      if (value !== undefined && value !== collection[key]) Object.assign(changes, { [key]: value });
    }
    if (Object.keys(changes).length === 0) return [];
    return [
      {
        type: 'CollectionUpdated',
        data: { collectionId: collection.id, changes, updatedAt: iso(command.at) },
      },
    ];
  },

  MoveCollection(command, state) {
    const collection = live(state);
    if (command.parent === collection.id) throw invalid('A collection cannot be moved into itself');
    return [
      {
        type: 'CollectionMoved',
        data: {
          collectionId: collection.id,
          parent: command.parent,
          position: command.position,
          movedAt: iso(command.at),
        },
      },
    ];
  },

  TransferCollection(command, state) {
    const collection = live(state);
    if (command.organization === collection.organization) {
      throw conflict('The collection already belongs to this organization');
    }
    return [
      {
        type: 'CollectionTransferred',
        data: {
          collectionId: collection.id,
          fromOrganization: collection.organization,
          organization: command.organization,
          position: command.position,
          contents: command.contents,
          transferredAt: iso(command.at),
        },
      },
    ];
  },

  DeleteCollection(command, state) {
    if (state.status === 'deleted') return [];
    const collection = live(state);
    return [
      {
        type: 'CollectionDeleted',
        data: {
          collectionId: collection.id,
          organization: collection.organization,
          parent: collection.parent,
          deletedAt: iso(command.at),
        },
      },
    ];
  },
};

export const collectionDecider: Decider<CollectionCommand, CollectionEvent, CollectionState> = {
  initialState: { status: 'none' },

  decide: decideBy(decisions),

  evolve(state, event) {
    switch (event.type) {
      case 'CollectionCreated': {
        const { position: _p, createdAt: _c, ...facts } = event.data;
        return { status: 'active', ...facts };
      }
      case 'CollectionUpdated':
        return state.status === 'active' ? { ...state, ...event.data.changes } : state;
      case 'CollectionMoved':
        return state.status === 'active' ? { ...state, parent: event.data.parent } : state;
      case 'CollectionTransferred':
        // A transferred collection lands at the top level of the target organization.
        return state.status === 'active'
          ? { ...state, organization: event.data.organization, parent: null }
          : state;
      case 'CollectionDeleted':
        return state.status === 'active' ? { status: 'deleted', id: state.id } : state;
      default:
        return state;
    }
  },
};

export const collectionStream = (collectionId: string) => `collection-${collectionId}`;
