import type { Document } from '@app/documents/document';
import { documentLinks } from '@app/documents/document/document-links';
import {
  conflict,
  type Decider,
  type Decisions,
  DomainError,
  decideBy,
  invalid,
  notFound,
} from '@app/platform/domain/decider';
import { isEmoji } from '@app/platform/domain/emoji';
import type { PageAt } from './comment-target';

/** Where a comment lives: a space, or one of its change requests. */
export interface CommentPlace {
  organization: string;
  spaceId: string;
  /** Absent for a comment on the space itself. */
  changeRequestId?: string;
}

/** What a comment points at, besides its place. */
export interface CommentAnchor {
  /** The revision of the space or change request when the comment was made. */
  revision: string;
  page?: string;
  /** The page as it was then (with `page`). */
  pageAt?: PageAt;
  /** The key of the block commented on, in `page`. */
  node?: string;
  /** The block's text then (with `node`). */
  preview?: string;
  /** A cell of a table block: its record and column (GitBook's `TableCellTarget`). */
  tableCell?: { record: string; definition: string };
  /** The review the comment was made with. */
  review?: string;
}

export interface Reaction {
  emoji: string;
  userId: string;
  reactedAt: string;
}

interface ReplyFacts {
  postedBy: string;
  reactions: Reaction[];
}

interface CommentFacts extends CommentPlace {
  id: string;
  postedBy: string;
  resolved: boolean;
  reactions: Reaction[];
  /** Live replies, by id. */
  replies: Record<string, ReplyFacts>;
}

export type CommentState =
  | { status: 'none' }
  | ({ status: 'live' } & CommentFacts)
  | { status: 'deleted'; id: string };

/**
 * A body as a document and, as the service rendered it from that document, as Markdown: reads answer
 * the Markdown kept rather than convert again. Absent from events logged before it was kept, and from
 * comments made by jobs (a review's), which reads convert.
 */
export interface CommentBody {
  body: Document;
  markdown?: string;
}

/** Every event names the comment and its place: the counters and the audit log read them from it. */
type On = CommentPlace & { commentId: string };
type OnReply = On & { replyId: string };

export type CommentEvent =
  | {
      type: 'CommentCreated';
      data: On & CommentAnchor & CommentBody & { mentions: string[]; postedBy: string; postedAt: string };
    }
  | { type: 'CommentEdited'; data: On & CommentBody & { mentions: string[]; editedAt: string } }
  | { type: 'CommentResolved'; data: On & { resolvedBy: string; resolvedAt: string } }
  | { type: 'CommentReopened'; data: On & { reopenedBy: string; reopenedAt: string } }
  | { type: 'CommentReactionAdded'; data: On & { emoji: string; userId: string; reactedAt: string } }
  | { type: 'CommentReactionRemoved'; data: On & { emoji: string; userId: string; removedAt: string } }
  /** `open`: whether it counted among the open comments of its place. */
  | { type: 'CommentDeleted'; data: On & { open: boolean; deletedAt: string } }
  | {
      type: 'CommentReplyCreated';
      data: OnReply & CommentBody & { mentions: string[]; postedBy: string; postedAt: string };
    }
  | { type: 'CommentReplyEdited'; data: OnReply & CommentBody & { mentions: string[]; editedAt: string } }
  | {
      type: 'CommentReplyReactionAdded';
      data: OnReply & { emoji: string; userId: string; reactedAt: string };
    }
  | {
      type: 'CommentReplyReactionRemoved';
      data: OnReply & { emoji: string; userId: string; removedAt: string };
    }
  | { type: 'CommentReplyDeleted'; data: OnReply & { deletedAt: string } };

/** Who acts: their user id, and whether they administer the space (and so may edit or delete anything). */
export interface Actor {
  userId: string;
  admin: boolean;
}

/** An update of a comment or a reply: each part optional, reactions by emoji. */
export interface CommentChanges {
  body?: CommentBody;
  addedReactions?: string[];
  removedReactions?: string[];
}

/**
 * Commands name the place the route addressed: a comment of another place is not found. Bodies come
 * as documents (the service reads Markdown and checks their size).
 */
export type CommentCommand =
  | {
      type: 'PostComment';
      commentId: string;
      place: CommentPlace;
      anchor: CommentAnchor;
      body: CommentBody;
      actor: Actor;
      at: number;
    }
  | {
      type: 'UpdateComment';
      place: CommentPlace;
      resolved?: boolean;
      changes: CommentChanges;
      actor: Actor;
      at: number;
    }
  | { type: 'DeleteComment'; place: CommentPlace; actor: Actor; at: number }
  | { type: 'PostReply'; place: CommentPlace; replyId: string; body: CommentBody; actor: Actor; at: number }
  | {
      type: 'UpdateReply';
      place: CommentPlace;
      replyId: string;
      changes: CommentChanges;
      actor: Actor;
      at: number;
    }
  | { type: 'DeleteReply'; place: CommentPlace; replyId: string; actor: Actor; at: number };

/** The most reactions one request adds or removes. */
export const MAX_REACTIONS_PER_UPDATE = 20;

const iso = (ms: number) => new Date(ms).toISOString();

const forbidden = (message: string) => new DomainError('forbidden', message);

/** The users a body mentions, each once, in order. */
export function mentionsOf(body: Document): string[] {
  const users = documentLinks(body).flatMap(({ ref }) =>
    ref.kind === 'user' && typeof (ref as { user?: unknown }).user === 'string'
      ? [(ref as { user: string }).user]
      : [],
  );
  return [...new Set(users)];
}

/** A body as events carry it: the document, its Markdown when kept, and whom it mentions. */
function bodyData({ body, markdown }: CommentBody): CommentBody & { mentions: string[] } {
  return { body, ...(markdown !== undefined ? { markdown } : {}), mentions: mentionsOf(body) };
}

function samePlace(facts: CommentFacts, place: CommentPlace): boolean {
  return (
    facts.spaceId === place.spaceId && (facts.changeRequestId ?? null) === (place.changeRequestId ?? null)
  );
}

function live(state: CommentState, place: CommentPlace): CommentFacts {
  if (state.status !== 'live' || !samePlace(state, place)) throw notFound('Comment not found');
  return state;
}

/** What an event names: the comment, and its place with the organization the space is in now (it may have moved). */
function on(facts: CommentFacts, place: CommentPlace): On {
  return {
    commentId: facts.id,
    organization: place.organization,
    spaceId: facts.spaceId,
    ...(facts.changeRequestId ? { changeRequestId: facts.changeRequestId } : {}),
  };
}

/** Authors edit and delete what they posted; the space's admins anything. */
function mayChange(postedBy: string, actor: Actor, what: string): void {
  if (actor.userId !== postedBy && !actor.admin) throw forbidden(`Only its author or an admin may ${what}`);
}

function checkEmoji(list: readonly string[] | undefined, field: string): string[] {
  const emoji = [...new Set(list ?? [])];
  if (emoji.length > MAX_REACTIONS_PER_UPDATE)
    throw invalid(`${field}: at most ${MAX_REACTIONS_PER_UPDATE} reactions at once`);
  for (const e of emoji)
    if (e === '' || !isEmoji(e)) throw invalid(`${field}: ${JSON.stringify(e)} is not one emoji`);
  return emoji;
}

/**
 * The reactions an update adds and removes, as pairs of emoji and whether added: one reaction per user
 * and emoji, so adding one twice or removing one never given changes nothing.
 */
function reactionChanges(reactions: readonly Reaction[], changes: CommentChanges, userId: string) {
  const added = checkEmoji(changes.addedReactions, 'addedReactions');
  const removed = checkEmoji(changes.removedReactions, 'removedReactions');
  const both = added.find((e) => removed.includes(e));
  if (both !== undefined) throw invalid(`addedReactions and removedReactions both name ${both}`);
  const has = (emoji: string) => reactions.some((r) => r.emoji === emoji && r.userId === userId);
  return { add: added.filter((e) => !has(e)), remove: removed.filter(has) };
}

function withReaction(reactions: Reaction[], reaction: Reaction): Reaction[] {
  return [...reactions, reaction];
}

function withoutReaction(reactions: Reaction[], emoji: string, userId: string): Reaction[] {
  return reactions.filter((r) => !(r.emoji === emoji && r.userId === userId));
}

const decisions: Decisions<CommentCommand, CommentEvent, CommentState> = {
  PostComment(command, state) {
    // Posting again (a retried job, under the id a review keeps) adds nothing.
    if (state.status !== 'none') return [];
    const { place, anchor, body, actor, at } = command;
    return [
      {
        type: 'CommentCreated',
        data: {
          commentId: command.commentId,
          ...place,
          ...anchor,
          ...bodyData(body),
          postedBy: actor.userId,
          postedAt: iso(at),
        },
      },
    ];
  },

  UpdateComment(command, state) {
    const comment = live(state, command.place);
    const { changes, actor, at } = command;
    const base = on(comment, command.place);
    const events: CommentEvent[] = [];
    if (changes.body !== undefined) {
      mayChange(comment.postedBy, actor, 'edit a comment');
      events.push({
        type: 'CommentEdited',
        data: { ...base, ...bodyData(changes.body), editedAt: iso(at) },
      });
    }
    const { add, remove } = reactionChanges(comment.reactions, changes, actor.userId);
    for (const emoji of add)
      events.push({
        type: 'CommentReactionAdded',
        data: { ...base, emoji, userId: actor.userId, reactedAt: iso(at) },
      });
    for (const emoji of remove)
      events.push({
        type: 'CommentReactionRemoved',
        data: { ...base, emoji, userId: actor.userId, removedAt: iso(at) },
      });
    if (command.resolved === true && !comment.resolved)
      events.push({
        type: 'CommentResolved',
        data: { ...base, resolvedBy: actor.userId, resolvedAt: iso(at) },
      });
    if (command.resolved === false && comment.resolved)
      events.push({
        type: 'CommentReopened',
        data: { ...base, reopenedBy: actor.userId, reopenedAt: iso(at) },
      });
    return events;
  },

  DeleteComment(command, state) {
    const comment = live(state, command.place);
    mayChange(comment.postedBy, command.actor, 'delete a comment');
    return [
      {
        type: 'CommentDeleted',
        data: { ...on(comment, command.place), open: !comment.resolved, deletedAt: iso(command.at) },
      },
    ];
  },

  PostReply(command, state) {
    const comment = live(state, command.place);
    if (comment.replies[command.replyId]) throw conflict('Reply already exists');
    return [
      {
        type: 'CommentReplyCreated',
        data: {
          ...on(comment, command.place),
          replyId: command.replyId,
          ...bodyData(command.body),
          postedBy: command.actor.userId,
          postedAt: iso(command.at),
        },
      },
    ];
  },

  UpdateReply(command, state) {
    const comment = live(state, command.place);
    const reply = comment.replies[command.replyId];
    if (!reply) throw notFound('Comment reply not found');
    const { changes, actor, at } = command;
    const base = { ...on(comment, command.place), replyId: command.replyId };
    const events: CommentEvent[] = [];
    if (changes.body !== undefined) {
      mayChange(reply.postedBy, actor, 'edit a reply');
      events.push({
        type: 'CommentReplyEdited',
        data: { ...base, ...bodyData(changes.body), editedAt: iso(at) },
      });
    }
    const { add, remove } = reactionChanges(reply.reactions, changes, actor.userId);
    for (const emoji of add)
      events.push({
        type: 'CommentReplyReactionAdded',
        data: { ...base, emoji, userId: actor.userId, reactedAt: iso(at) },
      });
    for (const emoji of remove)
      events.push({
        type: 'CommentReplyReactionRemoved',
        data: { ...base, emoji, userId: actor.userId, removedAt: iso(at) },
      });
    return events;
  },

  DeleteReply(command, state) {
    const comment = live(state, command.place);
    const reply = comment.replies[command.replyId];
    if (!reply) throw notFound('Comment reply not found');
    mayChange(reply.postedBy, command.actor, 'delete a reply');
    return [
      {
        type: 'CommentReplyDeleted',
        data: { ...on(comment, command.place), replyId: command.replyId, deletedAt: iso(command.at) },
      },
    ];
  },
};

function evolveReply(
  state: CommentState,
  replyId: string,
  change: (reply: ReplyFacts) => ReplyFacts | undefined,
): CommentState {
  if (state.status !== 'live') return state;
  const reply = state.replies[replyId];
  if (!reply) return state;
  const { [replyId]: _before, ...others } = state.replies;
  const after = change(reply);
  return { ...state, replies: after ? { ...others, [replyId]: after } : others };
}

export const commentDecider: Decider<CommentCommand, CommentEvent, CommentState> = {
  initialState: { status: 'none' },

  decide: decideBy(decisions),

  // A comment's id is drawn as it is posted (a review's is drawn with the review, and posted again
  // should its job run twice: then the append finds the stream and the log decides).
  startsStream: (command) => command.type === 'PostComment',

  evolve(state, event) {
    switch (event.type) {
      case 'CommentCreated': {
        const { commentId, organization, spaceId, changeRequestId, postedBy } = event.data;
        return {
          status: 'live',
          id: commentId,
          organization,
          spaceId,
          ...(changeRequestId ? { changeRequestId } : {}),
          postedBy,
          resolved: false,
          reactions: [],
          replies: {},
        };
      }
      case 'CommentResolved':
        return state.status === 'live' ? { ...state, resolved: true } : state;
      case 'CommentReopened':
        return state.status === 'live' ? { ...state, resolved: false } : state;
      case 'CommentReactionAdded': {
        if (state.status !== 'live') return state;
        const { emoji, userId, reactedAt } = event.data;
        return { ...state, reactions: withReaction(state.reactions, { emoji, userId, reactedAt }) };
      }
      case 'CommentReactionRemoved':
        return state.status === 'live'
          ? { ...state, reactions: withoutReaction(state.reactions, event.data.emoji, event.data.userId) }
          : state;
      case 'CommentDeleted':
        return state.status === 'live' ? { status: 'deleted', id: state.id } : state;
      case 'CommentReplyCreated':
        return state.status === 'live'
          ? {
              ...state,
              replies: {
                ...state.replies,
                [event.data.replyId]: { postedBy: event.data.postedBy, reactions: [] },
              },
            }
          : state;
      case 'CommentReplyReactionAdded': {
        const { emoji, userId, reactedAt } = event.data;
        return evolveReply(state, event.data.replyId, (r) => ({
          ...r,
          reactions: withReaction(r.reactions, { emoji, userId, reactedAt }),
        }));
      }
      case 'CommentReplyReactionRemoved':
        return evolveReply(state, event.data.replyId, (r) => ({
          ...r,
          reactions: withoutReaction(r.reactions, event.data.emoji, event.data.userId),
        }));
      case 'CommentReplyDeleted':
        return evolveReply(state, event.data.replyId, () => undefined);
      default:
        return state;
    }
  },
};

export const commentStream = (commentId: string) => `comment-${commentId}`;
