import type { Document } from '@app/documents/document';
import { documentText } from '@app/documents/document/document-text';
import type { Hash } from '@app/documents/tree/hash';
import {
  conflict,
  type Decider,
  type Decisions,
  decideBy,
  invalid,
  notFound,
  preconditionFailed,
} from '@app/platform/domain/decider';
import {
  enforceMergeRules,
  type LatestReview,
  type MergeRulesConfiguration,
  type ReviewStatus,
} from '@app/spaces/domain/merge-rules';
import type { PageOutcome } from './changes';

/**
 * A space's content and its change requests, as one aggregate (stream `space-content-<spaceId>`): the
 * space's current revision, the numbering of change requests, and each change request's revision and
 * base. A merge moves the current revision only from the revision it was computed on, and numbers are
 * handed out in order, because both are decided on this one stream.
 *
 * Content itself is computed outside (merges and edits read stored objects); commands carry the result,
 * and the decider checks it was computed on the state it is applied to.
 */

export type ChangeRequestStatus = 'draft' | 'open' | 'archived' | 'merged';
/** The statuses a change request may be given by an update; `merged` comes only from a merge. */
export type SettableStatus = Exclude<ChangeRequestStatus, 'merged'>;

/** A revision: its id and the root of its content (a hash of the content tree). */
export interface RevisionRef {
  id: string;
  root: Hash;
}

export type { PageOutcome };

/** An external link of a change request (GitBook's `ChangeRequestLink`, without what a connector resolves). */
export interface ChangeRequestLink {
  id: string;
  ref: { kind: 'url'; url: string };
  title?: string;
}

/** A link as an update gives it: with the id of one of the change request's links to keep it, without to add one. */
export type ChangeRequestLinkInput = Omit<ChangeRequestLink, 'id'> & { id?: string };

/** What an update may change of a change request (`ChangeRequestUpdated`'s `changes`). */
export interface ChangeRequestChanges {
  subject?: string;
  status?: SettableStatus;
  /** GitBook's `JSONDocument`. */
  description?: Document;
  /** The whole list of links, replacing the previous one. */
  links?: ChangeRequestLink[];
}

/** A comment given with a review (GitBook's `ChangeRequestReview.comment`), its body as a document. */
export interface ReviewComment {
  id: string;
  body: Document;
}

export interface ChangeRequestFacts {
  id: string;
  number: number;
  status: SettableStatus;
  subject: string;
  revision: RevisionRef;
  /** What the change request's content is based on: its initial revision, or the last one it was updated from. */
  base: RevisionRef;
  /** Counts the change request's changes: its ETag, which `If-Match` pins. */
  version: number;
  createdBy: string | null;
  /** Each reviewer's latest review. */
  reviews: Readonly<Record<string, LatestReview>>;
  /** Users asked to review, in the order asked. */
  requested: readonly string[];
  /** Its external links, in order; events from before links existed leave it empty. */
  links: readonly ChangeRequestLink[];
  /** Its description has text (what `require_change_request_description` asks); the text itself is in the views. */
  described?: boolean;
}

/** What merge rules look at in a change request merged onto the space's `head`. */
export const mergeFacts = (cr: ChangeRequestFacts, head: RevisionRef) => ({
  ...cr,
  upToDate: cr.base.id === head.id,
  described: cr.described === true,
});

export interface SpaceContentState {
  spaceId: string | null;
  /** The space's current revision; null until the first event (then the space's initial revision). */
  head: RevisionRef | null;
  lastNumber: number;
  /** Change requests not merged. A merged one leaves the state, since nothing may change it again. */
  changeRequests: Readonly<Record<string, ChangeRequestFacts>>;
}

interface Of {
  spaceId: string;
  changeRequestId: string;
}

export type SpaceContentEvent =
  | {
      type: 'ChangeRequestCreated';
      data: Of & {
        organization: string;
        number: number;
        subject: string;
        status: SettableStatus;
        revisionInitial: RevisionRef;
        createdBy: string | null;
        createdAt: string;
      };
    }
  | {
      type: 'ChangeRequestUpdated';
      data: Of & {
        changes: ChangeRequestChanges;
        previousStatus: SettableStatus;
        updatedAt: string;
      };
    }
  | {
      type: 'ChangeRequestContentUpdated';
      data: Of & { revision: RevisionRef; parent: string; changes: PageOutcome[]; updatedAt: string };
    }
  | {
      type: 'ChangeRequestRebased';
      data: Of & { revision: RevisionRef; parents: string[]; mergedAncestor: RevisionRef; updatedAt: string };
    }
  | {
      type: 'ChangeRequestReviewSubmitted';
      data: Of & {
        reviewId: string;
        reviewer: string;
        status: ReviewStatus;
        revision: string;
        /** Absent in reviews given without one, and in events from before comments were kept. */
        comment?: ReviewComment;
        submittedAt: string;
      };
    }
  | {
      type: 'ChangeRequestReviewersRequested';
      data: Of & { users: string[]; revision: string; requestedBy: string | null; requestedAt: string };
    }
  | { type: 'ChangeRequestReviewerRemoved'; data: Of & { user: string; removedAt: string } }
  | {
      type: 'ChangeRequestMerged';
      data: Of & {
        revision: RevisionRef;
        parents: string[];
        previousStatus: SettableStatus;
        mergedBy: string | null;
        mergedAt: string;
      };
    };

/** Where a command's content was computed: the change request's version and revision, and the space's. */
interface Computed {
  changeRequestId: string;
  /** `If-Match`: the version the caller last saw; a different current one is a 412. */
  ifVersion?: number;
  /** The change request revision the content was computed from. */
  from: string;
  at: number;
}

export type SpaceContentCommand =
  | {
      type: 'CreateChangeRequest';
      spaceId: string;
      organization: string;
      changeRequestId: string;
      subject: string;
      /** The space's current revision as the caller read it; it must still be current. */
      head: RevisionRef;
      createdBy: string | null;
      at: number;
    }
  | ({
      type: 'UpdateChangeRequest';
      changeRequestId: string;
      ifVersion?: number;
      at: number;
    } & ChangeRequestEdits)
  | ({ type: 'UpdateChangeRequestContent'; revision: RevisionRef; changes: PageOutcome[] } & Computed)
  | ({
      type: 'RebaseChangeRequest';
      /** The space revision merged in; `revision` null when the change request already holds it all. */
      onto: RevisionRef;
      revision: RevisionRef | null;
    } & Computed)
  | ({
      type: 'MergeChangeRequest';
      onto: RevisionRef;
      /** The new space revision. */
      revision: RevisionRef;
      mergedBy: string | null;
      /** The space's merge rules, as the caller read them. */
      mergeRules: MergeRulesConfiguration;
    } & Computed)
  | {
      type: 'SubmitChangeRequestReview';
      changeRequestId: string;
      reviewId: string;
      reviewer: string;
      status: ReviewStatus;
      comment?: ReviewComment;
      at: number;
    }
  | {
      type: 'RequestChangeRequestReviewers';
      changeRequestId: string;
      users: string[];
      requestedBy: string | null;
      /** GitBook's request may update the subject and description with it. */
      subject?: string;
      description?: Document;
      at: number;
    }
  | { type: 'RemoveChangeRequestReviewer'; changeRequestId: string; user: string; at: number };

/** What an update asks to change; links without an id take the ids of `newLinkIds`, in order. */
export interface ChangeRequestEdits {
  subject?: string;
  status?: SettableStatus;
  description?: Document;
  links?: ChangeRequestLinkInput[];
  /** Ids for the links given without one (the caller makes them, so that deciding stays pure). */
  newLinkIds?: string[];
}

/** GitBook's limit on a change request's links. */
export const MAX_CHANGE_REQUEST_LINKS = 10;

const iso = (ms: number) => new Date(ms).toISOString();

/** Moves an update may make. A merged change request never changes again (it has left the state). */
const STATUS_MOVES: Record<SettableStatus, readonly SettableStatus[]> = {
  draft: ['open', 'archived'],
  open: ['draft', 'archived'],
  archived: ['open', 'draft'],
};

function changeRequest(state: SpaceContentState, id: string): ChangeRequestFacts {
  const found = state.changeRequests[id];
  // The service resolves ids from the views first, so an id missing here was created and since merged.
  if (!found) throw conflict('Change request is merged and can no longer change');
  return found;
}

function pinned(cr: ChangeRequestFacts, ifVersion: number | undefined): void {
  if (ifVersion !== undefined && ifVersion !== cr.version) {
    throw preconditionFailed(`change request version is ${cr.version}, If-Match asked for ${ifVersion}`);
  }
}

/**
 * A change request whose content may change (not merged, not archived, at the version pinned): what a
 * caller checks before computing new content, so that nothing is computed, or stored, for a refusal.
 */
export function editableChangeRequest(
  state: SpaceContentState,
  id: string,
  ifVersion: number | undefined,
): ChangeRequestFacts {
  const cr = changeRequest(state, id);
  pinned(cr, ifVersion);
  if (cr.status === 'archived') throw conflict('Change request is archived; reopen it first');
  return cr;
}

/** As `editableChangeRequest`, and the command was computed on the change request's current revision. */
function editable(state: SpaceContentState, command: Computed): ChangeRequestFacts {
  const cr = editableChangeRequest(state, command.changeRequestId, command.ifVersion);
  if (cr.revision.id !== command.from) throw conflict('Change request changed meanwhile; try again');
  return cr;
}

function headIs(state: SpaceContentState, onto: RevisionRef): void {
  if (state.head !== null && state.head.id !== onto.id)
    throw conflict('The space content changed meanwhile; try again');
}

const withChangeRequest = (state: SpaceContentState, cr: ChangeRequestFacts): SpaceContentState => ({
  ...state,
  changeRequests: { ...state.changeRequests, [cr.id]: cr },
});

/** What each command decides. */
const decisions: Decisions<SpaceContentCommand, SpaceContentEvent, SpaceContentState> = {
  CreateChangeRequest(command, state) {
    if (state.changeRequests[command.changeRequestId]) throw conflict('Change request already exists');
    headIs(state, command.head);
    return [
      {
        type: 'ChangeRequestCreated',
        data: {
          spaceId: command.spaceId,
          changeRequestId: command.changeRequestId,
          organization: command.organization,
          number: state.lastNumber + 1,
          subject: command.subject,
          status: 'open',
          revisionInitial: state.head ?? command.head,
          createdBy: command.createdBy,
          createdAt: iso(command.at),
        },
      },
    ];
  },

  UpdateChangeRequest(command, state) {
    const cr = changeRequest(state, command.changeRequestId);
    pinned(cr, command.ifVersion);
    return updated(state, cr, command, command.at);
  },

  UpdateChangeRequestContent(command, state) {
    const cr = editable(state, command);
    if (command.revision.root === cr.revision.root) return [];
    return [
      {
        type: 'ChangeRequestContentUpdated',
        data: {
          spaceId: spaceOf(state, cr),
          changeRequestId: cr.id,
          revision: command.revision,
          parent: cr.revision.id,
          changes: command.changes,
          updatedAt: iso(command.at),
        },
      },
    ];
  },

  RebaseChangeRequest(command, state) {
    const cr = editable(state, command);
    headIs(state, command.onto);
    if (cr.base.id === command.onto.id) return [];
    return [
      {
        type: 'ChangeRequestRebased',
        data: {
          spaceId: spaceOf(state, cr),
          changeRequestId: cr.id,
          // Already holding everything of the space: only the base moves.
          revision: command.revision ?? cr.revision,
          parents: command.revision ? [cr.revision.id, command.onto.id] : [cr.revision.id],
          mergedAncestor: command.onto,
          updatedAt: iso(command.at),
        },
      },
    ];
  },

  MergeChangeRequest(command, state) {
    const cr = editable(state, command);
    headIs(state, command.onto);
    enforceMergeRules(command.mergeRules, mergeFacts(cr, command.onto), command.mergedBy);
    return [
      {
        type: 'ChangeRequestMerged',
        data: {
          spaceId: spaceOf(state, cr),
          changeRequestId: cr.id,
          revision: command.revision,
          parents: [command.onto.id, cr.revision.id],
          previousStatus: cr.status,
          mergedBy: command.mergedBy,
          mergedAt: iso(command.at),
        },
      },
    ];
  },

  SubmitChangeRequestReview(command, state) {
    const cr = editableChangeRequest(state, command.changeRequestId, undefined);
    const comment = command.comment;
    return [
      {
        type: 'ChangeRequestReviewSubmitted',
        data: {
          spaceId: spaceOf(state, cr),
          changeRequestId: cr.id,
          reviewId: command.reviewId,
          reviewer: command.reviewer,
          status: command.status,
          revision: cr.revision.id,
          ...(comment ? { comment } : {}),
          submittedAt: iso(command.at),
        },
      },
    ];
  },

  RequestChangeRequestReviewers(command, state) {
    const cr = editableChangeRequest(state, command.changeRequestId, undefined);
    if (cr.createdBy !== null && command.users.includes(cr.createdBy))
      throw invalid('users: the author of a change request cannot review it');
    // Asking again supersedes earlier reviews of the asked (they are outdated), so it is recorded.
    const users = [...new Set(command.users)];
    const edits = { subject: command.subject, description: command.description };
    const update = updated(state, cr, edits, command.at);
    if (users.length === 0) return update;
    return [
      ...update,
      {
        type: 'ChangeRequestReviewersRequested',
        data: {
          spaceId: spaceOf(state, cr),
          changeRequestId: cr.id,
          users,
          revision: cr.revision.id,
          requestedBy: command.requestedBy,
          requestedAt: iso(command.at),
        },
      },
    ];
  },

  RemoveChangeRequestReviewer(command, state) {
    const cr = changeRequest(state, command.changeRequestId);
    if (!cr.requested.includes(command.user)) return [];
    return [
      {
        type: 'ChangeRequestReviewerRemoved',
        data: {
          spaceId: spaceOf(state, cr),
          changeRequestId: cr.id,
          user: command.user,
          removedAt: iso(command.at),
        },
      },
    ];
  },
};

export const spaceContentDecider: Decider<SpaceContentCommand, SpaceContentEvent, SpaceContentState> = {
  initialState: { spaceId: null, head: null, lastNumber: 0, changeRequests: {} },

  decide: decideBy(decisions),

  evolve(state, event) {
    switch (event.type) {
      case 'ChangeRequestCreated': {
        const d = event.data;
        return withChangeRequest(
          {
            ...state,
            head: state.head ?? d.revisionInitial,
            lastNumber: Math.max(state.lastNumber, d.number),
            spaceId: d.spaceId,
          },
          {
            id: d.changeRequestId,
            number: d.number,
            status: d.status,
            subject: d.subject,
            revision: d.revisionInitial,
            base: d.revisionInitial,
            version: 0,
            createdBy: d.createdBy,
            reviews: {},
            requested: [],
            links: [],
          },
        );
      }
      case 'ChangeRequestUpdated': {
        const { subject, status, links, description } = event.data.changes;
        return evolveChangeRequest(state, event.data.changeRequestId, (cr) => ({
          ...cr,
          ...(subject !== undefined ? { subject } : {}),
          ...(status !== undefined ? { status } : {}),
          ...(links !== undefined ? { links } : {}),
          ...(description !== undefined ? { described: documentText(description).trim() !== '' } : {}),
        }));
      }
      case 'ChangeRequestContentUpdated':
        return evolveChangeRequest(state, event.data.changeRequestId, (cr) => ({
          ...cr,
          revision: event.data.revision,
        }));
      case 'ChangeRequestRebased':
        return evolveChangeRequest(state, event.data.changeRequestId, (cr) => ({
          ...cr,
          revision: event.data.revision,
          base: event.data.mergedAncestor,
        }));
      case 'ChangeRequestReviewSubmitted': {
        const { reviewer, status, revision } = event.data;
        return evolveChangeRequest(state, event.data.changeRequestId, (cr) => ({
          ...cr,
          reviews: { ...cr.reviews, [reviewer]: { status, revision } },
        }));
      }
      case 'ChangeRequestReviewersRequested': {
        const { users } = event.data;
        return evolveChangeRequest(state, event.data.changeRequestId, (cr) => ({
          ...cr,
          requested: [...cr.requested, ...users.filter((u) => !cr.requested.includes(u))],
        }));
      }
      case 'ChangeRequestReviewerRemoved':
        return evolveChangeRequest(state, event.data.changeRequestId, (cr) => ({
          ...cr,
          requested: cr.requested.filter((u) => u !== event.data.user),
        }));
      case 'ChangeRequestMerged': {
        const { [event.data.changeRequestId]: _merged, ...rest } = state.changeRequests;
        return { ...state, head: event.data.revision, changeRequests: rest };
      }
      default:
        return state;
    }
  },
};

/**
 * The update `edits` make, as one `ChangeRequestUpdated` with what differs, or nothing. A description
 * given is recorded as given; a link given with an id must be one of the change request's.
 */
function updated(
  state: SpaceContentState,
  cr: ChangeRequestFacts,
  edits: ChangeRequestEdits,
  at: number,
): SpaceContentEvent[] {
  const changes: ChangeRequestChanges = {};
  if (edits.subject !== undefined && edits.subject !== cr.subject) changes.subject = edits.subject;
  if (edits.status !== undefined && edits.status !== cr.status) {
    if (!STATUS_MOVES[cr.status].includes(edits.status))
      throw invalid(`status: a change request cannot go from ${cr.status} to ${edits.status}`);
    changes.status = edits.status;
  }
  if (edits.description !== undefined) changes.description = edits.description;
  if (edits.links !== undefined) {
    const links = linksAfter(cr, edits.links, edits.newLinkIds ?? []);
    if (JSON.stringify(links) !== JSON.stringify(cr.links)) changes.links = links;
  }
  if (Object.keys(changes).length === 0) return [];
  return [
    {
      type: 'ChangeRequestUpdated',
      data: {
        spaceId: spaceOf(state, cr),
        changeRequestId: cr.id,
        changes,
        previousStatus: cr.status,
        updatedAt: iso(at),
      },
    },
  ];
}

/** The links an update gives, each with its id: a kept one's, or the next new one. */
function linksAfter(
  cr: ChangeRequestFacts,
  given: readonly ChangeRequestLinkInput[],
  newIds: readonly string[],
): ChangeRequestLink[] {
  if (given.length > MAX_CHANGE_REQUEST_LINKS)
    throw invalid(`links: a change request has at most ${MAX_CHANGE_REQUEST_LINKS} links`);
  const fresh = [...newIds];
  const seen = new Set<string>();
  return given.map((link, i) => {
    let id = link.id;
    if (id === undefined) {
      id = fresh.shift();
      if (id === undefined) throw invalid(`links[${i}].id: no id was made for the new link`);
    } else if (!cr.links.some((l) => l.id === id)) {
      throw invalid(`links[${i}].id: ${id} is not a link of this change request`);
    }
    if (seen.has(id)) throw invalid(`links[${i}].id: ${id} is given twice`);
    seen.add(id);
    return {
      id,
      ref: { kind: 'url', url: link.ref.url },
      ...(link.title !== undefined ? { title: link.title } : {}),
    };
  });
}

function evolveChangeRequest(
  state: SpaceContentState,
  id: string,
  change: (cr: ChangeRequestFacts) => ChangeRequestFacts,
): SpaceContentState {
  const cr = state.changeRequests[id];
  return cr ? withChangeRequest(state, { ...change(cr), version: cr.version + 1 }) : state;
}

/** The space of the stream, which its first event recorded. */
function spaceOf(state: SpaceContentState, cr: ChangeRequestFacts): string {
  if (!state.spaceId) throw notFound(`change request ${cr.id} has no space`);
  return state.spaceId;
}

export const spaceContentStream = (spaceId: string) => `space-content-${spaceId}`;
