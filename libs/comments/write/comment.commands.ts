import { ContentObjectStore, REVISIONS } from '@app/content/content.api';
import { MAX_NOTE_BYTES, readComment } from '@app/content/domain/change-request-documents';
import { markdownOfBody } from '@app/content/domain/changes';
import { findChangeRequest } from '@app/content/read/change-requests.queries';
import { convertMarkdown } from '@app/content/write/convert-markdown';
import type { Document } from '@app/documents/document';
import { DocumentConversions } from '@app/documents/document/conversions';
import { getDocument, getPage } from '@app/documents/tree/page-tree';
import { Access, type Viewer } from '@app/platform/auth/access';
import { invalid, notFound } from '@app/platform/domain/decider';
import { newId } from '@app/platform/domain/ids';
import { READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import { arg, Remote } from '@app/platform/rpc/remote-method';
import { apiContext } from '@app/platform/write/command-context';
import { CommandRunner } from '@app/platform/write/command-runner';
import { SPACES } from '@app/spaces/read/space.projection';
import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { commentAggregate } from '../domain/comment.aggregate';
import type {
  Actor,
  CommentAnchor,
  CommentBody,
  CommentChanges,
  CommentCommand,
  CommentPlace,
} from '../domain/comment.decider';
import { nodePreview } from '../domain/comment-target';

/** GitBook's `PostCommentSchema` (a table cell target aside). */
export interface PostCommentInput {
  node?: string;
  page?: string;
  tableCell?: { record: string; definition: string };
  /** GitBook's `Document`: `{markdown}` or `{document}`; checked as it is read. */
  body: unknown;
}

/** GitBook's `UpdateCommentSchema`; a reply's has no `resolved`. */
export interface UpdateCommentInput {
  resolved?: boolean;
  body?: unknown;
  addedReactions?: string[];
  removedReactions?: string[];
}

export interface PostReplyInput {
  body: unknown;
}

/**
 * Turns requests into comment commands. The routes checked the caller's role on the space; whether they
 * may edit or delete a given comment (its author, or an admin) the decider checks.
 */
@Injectable()
export class CommentService {
  constructor(
    private readonly bus: CommandBus,
    private readonly runner: CommandRunner,
    private readonly access: Access,
    private readonly conversions: DocumentConversions,
    private readonly objects: ContentObjectStore,
    @Inject(READ_STORE) private readonly views: ReadStore,
  ) {}

  private run(commentId: string, command: CommentCommand, viewer: Viewer) {
    return this.bus.execute(commentAggregate.message(commentId, command, apiContext(viewer)));
  }

  /** The place the path names, its current revision, and the caller as an actor there. */
  private async place(spaceId: string, changeRequest: string | undefined, viewer: Viewer) {
    const { organization, role } = await this.access.content(spaceId, viewer, 'Space');
    const actor: Actor = { userId: viewer.userId, admin: role === 'admin' };
    if (changeRequest === undefined) {
      const space = await this.views.get(SPACES, spaceId);
      if (!space || space.deleted) throw notFound('Space not found');
      return { place: { organization, spaceId } as CommentPlace, revision: space.revision, actor };
    }
    const cr = await findChangeRequest(this.views, spaceId, changeRequest);
    return {
      place: { organization, spaceId, changeRequestId: cr.id } as CommentPlace,
      revision: cr.revision,
      actor,
    };
  }

  /**
   * A body (`{markdown}` or `{document}`) in both forms (`CommentBody`), converted off the serving
   * thread: Markdown to a document and back in one task, a document to Markdown.
   */
  private async body(input: unknown, path = 'body'): Promise<CommentBody> {
    const markdown = markdownOfBody(input, MAX_NOTE_BYTES);
    const converted = await convertMarkdown(this.conversions, markdown, { andBack: true });
    const document = readComment(input, path, converted);
    if (!document) throw invalid(`${path}: must be {markdown} or {document}, not empty`);
    const done = markdown.length === 1 ? converted.get(markdown[0]) : undefined;
    const rendered = done && 'markdown' in done ? done.markdown : undefined;
    return { body: document, markdown: rendered ?? (await this.conversions.documentToMarkdown(document)) };
  }

  private async changes(body: UpdateCommentInput): Promise<CommentChanges> {
    return {
      ...(body.body !== undefined ? { body: await this.body(body.body) } : {}),
      ...(body.addedReactions ? { addedReactions: body.addedReactions } : {}),
      ...(body.removedReactions ? { removedReactions: body.removedReactions } : {}),
    };
  }

  /**
   * The page and block a comment is on, as they are in the revision it is made in: a page or block not
   * there is a 400 naming the field. A block is found in its page, so `node` needs `page`.
   */
  private async target(revision: string, input: PostCommentInput): Promise<Partial<CommentAnchor>> {
    if (input.page === undefined) {
      if (input.node !== undefined) throw invalid('node: a block is found in its page: give page too');
      return {};
    }
    const root = (await this.views.get(REVISIONS, revision))?.root;
    const page = root ? await getPage(this.objects, root, input.page) : undefined;
    if (!page) throw invalid(`page: there is no page ${input.page} here`);
    const pageAt = {
      title: page.title,
      ...(page.path !== undefined ? { path: page.path } : {}),
      ...(page.documentId ? { documentId: page.documentId } : {}),
    };
    if (input.node === undefined) return { page: page.id, pageAt };
    const body = page.documentId
      ? ((await getDocument(this.objects, page.documentId)) as unknown as Document)
      : null;
    const preview = body ? nodePreview(body, input.node) : undefined;
    if (preview === undefined) throw invalid(`node: page ${page.id} has no block ${input.node}`);
    return { page: page.id, pageAt, node: input.node, preview };
  }

  @Remote(
    arg.id('spaceId'),
    arg.optional(arg.id('changeRequestId')),
    arg.object<PostCommentInput>('body'),
    arg.viewer(),
  )
  async post(spaceId: string, changeRequest: string | undefined, input: PostCommentInput, viewer: Viewer) {
    const { place, revision, actor } = await this.place(spaceId, changeRequest, viewer);
    const body = await this.body(input.body);
    const commentId = newId();
    const anchor = {
      revision,
      ...(await this.target(revision, input)),
      ...(input.tableCell
        ? { tableCell: { record: input.tableCell.record, definition: input.tableCell.definition } }
        : {}),
    };
    const result = await this.run(
      commentId,
      { type: 'PostComment', commentId, place, anchor, body, actor, at: this.runner.now() },
      viewer,
    );
    return { ...result, commentId };
  }

  @Remote(
    arg.id('spaceId'),
    arg.optional(arg.id('changeRequestId')),
    arg.id('commentId'),
    arg.object<UpdateCommentInput>('body'),
    arg.viewer(),
  )
  async update(
    spaceId: string,
    changeRequest: string | undefined,
    commentId: string,
    input: UpdateCommentInput,
    viewer: Viewer,
  ) {
    const { place, actor } = await this.place(spaceId, changeRequest, viewer);
    const changes = await this.changes(input);
    return this.run(
      commentId,
      { type: 'UpdateComment', place, resolved: input.resolved, changes, actor, at: this.runner.now() },
      viewer,
    );
  }

  @Remote(arg.id('spaceId'), arg.optional(arg.id('changeRequestId')), arg.id('commentId'), arg.viewer())
  async delete(spaceId: string, changeRequest: string | undefined, commentId: string, viewer: Viewer) {
    const { place, actor } = await this.place(spaceId, changeRequest, viewer);
    return this.run(commentId, { type: 'DeleteComment', place, actor, at: this.runner.now() }, viewer);
  }

  @Remote(
    arg.id('spaceId'),
    arg.optional(arg.id('changeRequestId')),
    arg.id('commentId'),
    arg.object<PostReplyInput>('body'),
    arg.viewer(),
  )
  async postReply(
    spaceId: string,
    changeRequest: string | undefined,
    commentId: string,
    input: PostReplyInput,
    viewer: Viewer,
  ) {
    const { place, actor } = await this.place(spaceId, changeRequest, viewer);
    const body = await this.body(input.body);
    const replyId = newId();
    const result = await this.run(
      commentId,
      { type: 'PostReply', place, replyId, body, actor, at: this.runner.now() },
      viewer,
    );
    return { ...result, replyId };
  }

  @Remote(
    arg.id('spaceId'),
    arg.optional(arg.id('changeRequestId')),
    arg.id('commentId'),
    arg.id('commentReplyId'),
    arg.object<UpdateCommentInput>('body'),
    arg.viewer(),
  )
  async updateReply(
    spaceId: string,
    changeRequest: string | undefined,
    commentId: string,
    replyId: string,
    input: UpdateCommentInput,
    viewer: Viewer,
  ) {
    const { place, actor } = await this.place(spaceId, changeRequest, viewer);
    const changes = await this.changes(input);
    return this.run(
      commentId,
      { type: 'UpdateReply', place, replyId, changes, actor, at: this.runner.now() },
      viewer,
    );
  }

  @Remote(
    arg.id('spaceId'),
    arg.optional(arg.id('changeRequestId')),
    arg.id('commentId'),
    arg.id('commentReplyId'),
    arg.viewer(),
  )
  async deleteReply(
    spaceId: string,
    changeRequest: string | undefined,
    commentId: string,
    replyId: string,
    viewer: Viewer,
  ) {
    const { place, actor } = await this.place(spaceId, changeRequest, viewer);
    return this.run(commentId, { type: 'DeleteReply', place, replyId, actor, at: this.runner.now() }, viewer);
  }
}
