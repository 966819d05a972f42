import { DocumentConversions } from '@app/documents/document/conversions';
import { EMPTY_ROOT } from '@app/documents/tree/content';
import { ContentEditor } from '@app/documents/tree/editor';
import type { Hash } from '@app/documents/tree/hash';
import { type ObjectStore, serializeObjects, withStaged } from '@app/documents/tree/objects';
import { ORGANIZATIONS } from '@app/organizations/read/organization.projection';
import { Access, type Viewer } from '@app/platform/auth/access';
import { BLOB_STORE, type BlobStore } from '@app/platform/blobs/blob-store.port';
import { conflict, invalid, notFound } from '@app/platform/domain/decider';
import { newId } from '@app/platform/domain/ids';
import { Urls } from '@app/platform/http/urls';
import { READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import { arg, Remote } from '@app/platform/rpc/remote-method';
import { apiContext, type CommandContext } from '@app/platform/write/command-context';
import { type CommandOf, CommandRunner, type Prerequisite } from '@app/platform/write/command-runner';
import { effectiveMergeRules, enforceMergeRules, type ReviewStatus } from '@app/spaces/domain/merge-rules';
import { SPACES } from '@app/spaces/read/space.projection';
import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { MAX_NOTE_BYTES, readComment, readDescription } from '../domain/change-request-documents';
import {
  applyContentChanges,
  type ContentChangeInput,
  fileDownloadPath,
  type InsertedFile,
  markdownOfBody,
  markdownOfChanges,
  ParsedBodies,
} from '../domain/changes';
import { contentObjectsDecider, contentObjectsStream } from '../domain/content-objects.decider';
import { mergeRevisions } from '../domain/merge/merge';
import { spaceContentAggregate } from '../domain/space-content.aggregate';
import {
  type ChangeRequestFacts,
  type ChangeRequestLinkInput,
  editableChangeRequest,
  mergeFacts,
  type RevisionRef,
  type SettableStatus,
  type SpaceContentCommand,
  type SpaceContentState,
} from '../domain/space-content.decider';
import { findChangeRequest } from '../read/change-requests.queries';
import { ContentObjects } from '../read/content-objects.store';
import { REVISIONS } from '../read/revision.projection';
import { convertMarkdown } from './convert-markdown';

export interface CreateChangeRequestInput {
  subject?: string;
}

export interface UpdateChangeRequestInput {
  subject?: string;
  status?: SettableStatus;
  /** GitBook's `JSONDocument`, checked here. */
  description?: unknown;
  links?: ChangeRequestLinkInput[];
}

export interface SubmitReviewInput {
  status: ReviewStatus;
  /** GitBook's `Document`, checked here. */
  comment?: unknown;
}

export interface RequestReviewersInput {
  users: string[];
  subject?: string;
  description?: unknown;
}

export interface UpdateContentInput {
  changes: ContentChangeInput[];
}

/** What a merge or an update answers, as GitBook does: a conflict is a 200 that changed nothing. */
export interface MergeOutcome {
  /** Where the write landed; 0 when nothing was written (conflicts). */
  position: number;
  revision: string;
  result: 'merge' | 'update' | 'conflicts';
}

/** A merge or update that met conflicts: the prepared command is abandoned and nothing is written. */
class MergeConflicts extends Error {
  constructor(readonly revision: string) {
    super('conflicts');
  }
}

/**
 * Change requests: create, update, edit content, update from the space, merge. Content is computed
 * from stored objects on the state each attempt decides on (see `CommandOf`); its new objects are
 * appended to the space's object stream with the change, before it (`Prerequisite`), so that the change
 * naming them never lands without them, and a change refused stores none.
 */
@Injectable()
export class ChangeRequestService {
  constructor(
    private readonly bus: CommandBus,
    private readonly runner: CommandRunner,
    private readonly objects: ContentObjects,
    private readonly access: Access,
    @Inject(READ_STORE) private readonly views: ReadStore,
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
    private readonly urls: Urls,
    private readonly conversions: DocumentConversions,
  ) {}

  private run(
    spaceId: string,
    command: CommandOf<SpaceContentCommand, SpaceContentState>,
    ctx: CommandContext,
  ) {
    return this.bus.execute(spaceContentAggregate.message(spaceId, command, ctx));
  }

  /** The space, which must be live for its content to change. */
  private async space(spaceId: string) {
    const space = await this.views.get(SPACES, spaceId);
    if (!space) throw notFound('Space not found');
    if (space.deleted) throw conflict('Space is deleted; restore it first');
    return space;
  }

  /**
   * The space's current revision: the stream's, or before any change request the space's first (empty,
   * or a duplicate's with its source's content).
   */
  private async head(spaceId: string, state: SpaceContentState): Promise<RevisionRef> {
    if (state.head) return state.head;
    const space = await this.space(spaceId);
    return { id: space.revision, root: space.root ?? EMPTY_ROOT };
  }

  /**
   * A change's new objects, for the space's object stream: appended with the change, first (see
   * `Prerequisite`), and kept for the next change once they are.
   */
  private objectsOf(spaceId: string, created: ReadonlyMap<Hash, unknown>): Prerequisite {
    const events = contentObjectsDecider.decide(
      { type: 'StoreContentObjects', spaceId, objects: serializeObjects(created) },
      null,
    );
    return {
      stream: contentObjectsStream(spaceId),
      events,
      staged: created,
      appended: () => this.objects.remember(created),
    };
  }

  /** The stored objects, and those of changes decided before this one into the same append (`earlier`). */
  private objectsAfter(earlier: readonly Prerequisite[]): ObjectStore {
    return withStaged(
      this.objects,
      earlier.flatMap((p) => (p.staged ? [p.staged] : [])),
    );
  }

  @Remote(arg.id('spaceId'), arg.object<CreateChangeRequestInput>('body'), arg.viewer())
  async create(spaceId: string, body: CreateChangeRequestInput, viewer: Viewer) {
    const space = await this.space(spaceId);
    const changeRequestId = newId();
    const result = await this.run(
      spaceId,
      async (state) => ({
        type: 'CreateChangeRequest',
        spaceId,
        organization: space.organization,
        changeRequestId,
        subject: body.subject ?? '',
        head: await this.head(spaceId, state),
        createdBy: viewer.userId,
        at: this.runner.now(),
      }),
      apiContext(viewer),
    );
    return { ...result, changeRequestId };
  }

  @Remote(
    arg.id('spaceId'),
    arg.id('changeRequestId'),
    arg.object<UpdateChangeRequestInput>('body'),
    arg.viewer(),
    arg.optional(arg.int('ifMatch')),
  )
  async update(
    spaceId: string,
    ref: string,
    body: UpdateChangeRequestInput,
    viewer: Viewer,
    ifMatch?: number,
  ) {
    const cr = await findChangeRequest(this.views, spaceId, ref);
    if (cr.status === 'merged') throw conflict('Change request is merged and can no longer change');
    const { description, links, ...rest } = body;
    const result = await this.run(
      spaceId,
      {
        type: 'UpdateChangeRequest',
        changeRequestId: cr.id,
        ...rest,
        ...(description !== undefined ? { description: readDescription(description) } : {}),
        ...(links !== undefined
          ? { links, newLinkIds: links.filter((l) => l.id === undefined).map(() => newId()) }
          : {}),
        ifVersion: ifMatch,
        at: this.runner.now(),
      },
      apiContext(viewer),
    );
    return { ...result, changeRequestId: cr.id };
  }

  /** A batch of content changes, all applied in one new revision or none (a refused one throws). */
  @Remote(
    arg.id('spaceId'),
    arg.id('changeRequestId'),
    arg.object<UpdateContentInput>('body'),
    arg.viewer(),
    arg.optional(arg.int('ifMatch')),
  )
  async updateContent(
    spaceId: string,
    ref: string,
    body: UpdateContentInput,
    viewer: Viewer,
    ifMatch?: number,
  ) {
    await this.space(spaceId);
    const { id } = await findChangeRequest(this.views, spaceId, ref);
    const ctx = apiContext(viewer);
    // Converted off this thread, before the space's change requests are locked for this edit (see ParsedBodies).
    const bodies = new ParsedBodies(await convertMarkdown(this.conversions, markdownOfChanges(body.changes)));
    let applied: Awaited<ReturnType<typeof applyContentChanges>> | undefined;
    const result = await this.run(
      spaceId,
      async (state, prerequisite, earlier) => {
        const cr = editableChangeRequest(state, id, ifMatch);
        const objects = this.objectsAfter(earlier);
        const editor = await ContentEditor.open(objects, cr.revision.root);
        const at = this.runner.now();
        applied = await applyContentChanges(editor, body.changes, {
          newId,
          at: new Date(at).toISOString(),
          baseRoot: cr.base.root,
          store: objects,
          revisionRoot: (revision) => this.revisionRoot(spaceId, revision),
          bodies,
        });
        await this.upload(applied.insertedFiles, editor);
        const commit = editor.commit();
        prerequisite(this.objectsOf(spaceId, commit.created));
        return {
          type: 'UpdateChangeRequestContent',
          changeRequestId: id,
          ifVersion: ifMatch,
          from: cr.revision.id,
          revision: { id: newId(), root: commit.root },
          changes: applied.outcomes,
          at,
        };
      },
      ctx,
    );
    return {
      ...result,
      changeRequestId: id,
      outcomes: applied?.outcomes ?? [],
      insertedFiles: applied?.insertedFiles ?? [],
    };
  }

  /**
   * Stores the bytes of the files uploaded as base64 and gives each its download URL, before the content
   * naming them is committed and the change appended: an acknowledged change never names a missing blob.
   * A retried attempt stores them again, which stores nothing.
   */
  private async upload(files: InsertedFile[], editor: ContentEditor): Promise<void> {
    for (const [i, { bytes, ...file }] of files.entries()) {
      if (bytes === undefined) continue;
      const key = await this.blobs.put(bytes, file.contentType);
      files[i] = { ...file, downloadURL: this.urls.api(fileDownloadPath(key)) };
      await editor.putFile(files[i]);
    }
  }

  /** Merges the change request into the space (GitBook's `merge`): a conflict changes nothing. */
  @Remote(arg.id('spaceId'), arg.id('changeRequestId'), arg.viewer())
  async merge(spaceId: string, ref: string, viewer: Viewer): Promise<MergeOutcome> {
    const space = await this.space(spaceId);
    const organization = await this.views.get(ORGANIZATIONS, space.organization);
    const mergeRules = effectiveMergeRules(space.mergeRules, organization?.mergeRules);
    const { id } = await findChangeRequest(this.views, spaceId, ref);
    const ctx = apiContext(viewer);
    let revision = '';
    return this.outcome('merge', async () => {
      const { position } = await this.run(
        spaceId,
        async (state, prerequisite, earlier) => {
          const cr = editableChangeRequest(state, id, undefined);
          const onto = await this.head(spaceId, state);
          // Before the merge is computed, so that a refusal stores nothing.
          enforceMergeRules(mergeRules, mergeFacts(cr, onto), viewer.userId);
          const root = await this.mergedRoot(spaceId, cr, onto, prerequisite, earlier);
          revision = newId();
          return {
            type: 'MergeChangeRequest',
            changeRequestId: id,
            from: cr.revision.id,
            onto,
            revision: { id: revision, root },
            mergedBy: viewer.userId,
            mergeRules,
            at: this.runner.now(),
          };
        },
        ctx,
      );
      return { position, revision };
    });
  }

  /** Brings the space's latest content into the change request (GitBook's `update`). */
  @Remote(arg.id('spaceId'), arg.id('changeRequestId'), arg.viewer())
  async rebase(spaceId: string, ref: string, viewer: Viewer): Promise<MergeOutcome> {
    await this.space(spaceId);
    const { id } = await findChangeRequest(this.views, spaceId, ref);
    const ctx = apiContext(viewer);
    let revision = '';
    return this.outcome('update', async () => {
      const { position } = await this.run(
        spaceId,
        async (state, prerequisite, earlier) => {
          const cr = editableChangeRequest(state, id, undefined);
          const onto = await this.head(spaceId, state);
          const root = await this.mergedRoot(spaceId, cr, onto, prerequisite, earlier);
          const moved = root !== cr.revision.root;
          revision = moved ? newId() : cr.revision.id;
          return {
            type: 'RebaseChangeRequest',
            changeRequestId: id,
            from: cr.revision.id,
            onto,
            revision: moved ? { id: revision, root } : null,
            at: this.runner.now(),
          };
        },
        ctx,
      );
      return { position, revision };
    });
  }

  /** A review of the change request's current revision; a later one by the same reviewer supersedes it. */
  @Remote(arg.id('spaceId'), arg.id('changeRequestId'), arg.object<SubmitReviewInput>('body'), arg.viewer())
  async submitReview(spaceId: string, ref: string, body: SubmitReviewInput, viewer: Viewer) {
    await this.space(spaceId);
    const { id } = await findChangeRequest(this.views, spaceId, ref);
    const reviewId = newId();
    const converted = await convertMarkdown(this.conversions, markdownOfBody(body.comment, MAX_NOTE_BYTES));
    const comment = body.comment === undefined ? undefined : readComment(body.comment, 'comment', converted);
    const result = await this.run(
      spaceId,
      {
        type: 'SubmitChangeRequestReview',
        changeRequestId: id,
        reviewId,
        reviewer: viewer.userId,
        status: body.status,
        ...(comment ? { comment: { id: newId(), body: comment } } : {}),
        at: this.runner.now(),
      },
      apiContext(viewer),
    );
    return { ...result, changeRequestId: id, reviewId };
  }

  /** Asks members of the space's organization to review; the route checked the caller may edit. */
  @Remote(
    arg.id('spaceId'),
    arg.id('changeRequestId'),
    arg.object<RequestReviewersInput>('body'),
    arg.viewer(),
  )
  async requestReviewers(spaceId: string, ref: string, body: RequestReviewersInput, viewer: Viewer) {
    const space = await this.space(spaceId);
    const { id } = await findChangeRequest(this.views, spaceId, ref);
    for (const user of body.users) {
      if (!(await this.access.roleIn(space.organization, user))) {
        throw invalid(`users: ${user} is not a member of the space's organization`);
      }
    }
    const result = await this.run(
      spaceId,
      {
        type: 'RequestChangeRequestReviewers',
        changeRequestId: id,
        users: body.users,
        requestedBy: viewer.userId,
        ...(body.subject !== undefined ? { subject: body.subject } : {}),
        ...(body.description !== undefined ? { description: readDescription(body.description) } : {}),
        at: this.runner.now(),
      },
      apiContext(viewer),
    );
    return { ...result, changeRequestId: id, users: [...new Set(body.users)] };
  }

  /** Removes a requested reviewer; `removed` is false when the user had not been asked (204). */
  @Remote(arg.id('spaceId'), arg.id('changeRequestId'), arg.id('userId'), arg.viewer())
  async removeReviewer(spaceId: string, ref: string, user: string, viewer: Viewer) {
    await this.space(spaceId);
    const { id } = await findChangeRequest(this.views, spaceId, ref);
    const result = await this.run(
      spaceId,
      { type: 'RemoveChangeRequestReviewer', changeRequestId: id, user, at: this.runner.now() },
      apiContext(viewer),
    );
    return { ...result, removed: result.events.length > 0 };
  }

  private async outcome(
    result: 'merge' | 'update',
    write: () => Promise<{ position: number; revision: string }>,
  ): Promise<MergeOutcome> {
    try {
      return { ...(await write()), result };
    } catch (error) {
      if (!(error instanceof MergeConflicts)) throw error;
      return { position: 0, revision: error.revision, result: 'conflicts' };
    }
  }

  /** The three-way merge of the change request and the space from the change request's base; its new objects go first. */
  private async mergedRoot(
    spaceId: string,
    cr: ChangeRequestFacts,
    onto: RevisionRef,
    prerequisite: (objects: Prerequisite) => void,
    earlier: readonly Prerequisite[],
  ) {
    const objects = this.objectsAfter(earlier);
    const merged = await mergeRevisions(objects, cr.base.root, onto.root, cr.revision.root);
    if (merged.result === 'conflicts') throw new MergeConflicts(cr.revision.id);
    prerequisite(this.objectsOf(spaceId, merged.created));
    return merged.root;
  }

  private async revisionRoot(spaceId: string, revisionId: string): Promise<Hash | undefined> {
    const doc = await this.views.get(REVISIONS, revisionId);
    return doc && doc.space === spaceId ? doc.root : undefined;
  }
}
