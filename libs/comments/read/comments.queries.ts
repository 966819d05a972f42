import { findChangeRequest } from '@app/content/read/change-requests.queries';
import { Access, type Viewer } from '@app/platform/auth/access';
import { notFound } from '@app/platform/domain/decider';
import { withEtag } from '@app/platform/http/etag';
import { type ListQuery, offsetPage, pageQuery, toList } from '@app/platform/http/pagination';
import { READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import { arg, Remote } from '@app/platform/rpc/remote-method';
import { Inject, Injectable } from '@nestjs/common';
import { type BodyFormat, CommentPresenter, type Reader } from './comment.presenter';
import { COMMENT_REPLIES, COMMENTS, type CommentDoc } from './comment.projection';

export interface FormatQuery {
  format?: BodyFormat;
}

export interface ListCommentsQuery extends ListQuery, FormatQuery {
  order?: 'asc' | 'desc';
  status?: 'all' | 'open' | 'resolved';
  targetPage?: string;
  authors?: string[];
}

export type ListRepliesQuery = ListQuery & FormatQuery;

/** More comments than a place holds: a list filtered by author is read whole and paged in memory. */
const ALL = 10_000;

/**
 * Comments of a space (`changeRequest` absent) or of one of its change requests, given by id or number.
 * The routes checked the caller's role on the space; the reader's role gives `permissions`.
 */
@Injectable()
export class CommentQueries {
  constructor(
    @Inject(READ_STORE) private readonly views: ReadStore,
    private readonly access: Access,
    private readonly presenter: CommentPresenter,
  ) {}

  /** The reader, and the change request's id when the place is one. */
  private async place(spaceId: string, changeRequest: string | undefined, viewer: Viewer) {
    const { role } = await this.access.content(spaceId, viewer, 'Space');
    const reader: Reader = { userId: viewer.userId, role };
    if (changeRequest === undefined) return { reader, changeRequestId: null };
    return { reader, changeRequestId: (await findChangeRequest(this.views, spaceId, changeRequest)).id };
  }

  private async comment(spaceId: string, changeRequestId: string | null, commentId: string) {
    const doc = await this.views.get(COMMENTS, commentId);
    if (!doc || doc.space !== spaceId || doc.changeRequest !== changeRequestId)
      throw notFound('Comment not found');
    return doc;
  }

  @Remote(
    arg.id('spaceId'),
    arg.optional(arg.id('changeRequestId')),
    arg.object<ListCommentsQuery>('query'),
    arg.viewer(),
  )
  async list(spaceId: string, changeRequest: string | undefined, query: ListCommentsQuery, viewer: Viewer) {
    const { reader, changeRequestId } = await this.place(spaceId, changeRequest, viewer);
    const where = {
      space: spaceId,
      changeRequest: changeRequestId,
      ...(query.status && query.status !== 'all' ? { status: query.status } : {}),
      ...(query.targetPage !== undefined ? { page: query.targetPage } : {}),
    };
    const present = (doc: CommentDoc) => this.presenter.comment(doc, reader, query.format);
    const order = { orderBy: 'postedAt', direction: query.order ?? 'desc' } as const;
    if (!query.authors?.length) {
      const page = await this.views.find(COMMENTS, pageQuery(query, { where, ...order }));
      const items = await Promise.all(page.items.map(present));
      return toList({ ...page, items }, (item) => item);
    }
    const authors = new Set(query.authors);
    const all = (await this.views.find(COMMENTS, { where, ...order, limit: ALL })).items.filter((doc) =>
      authors.has(doc.postedBy),
    );
    const page = offsetPage(all, query, query.limit ?? 50);
    return { ...page.next, count: all.length, items: await Promise.all(page.items.map(present)) };
  }

  @Remote(
    arg.id('spaceId'),
    arg.optional(arg.id('changeRequestId')),
    arg.id('commentId'),
    arg.object<FormatQuery>('query'),
    arg.viewer(),
  )
  async get(
    spaceId: string,
    changeRequest: string | undefined,
    commentId: string,
    query: FormatQuery,
    viewer: Viewer,
  ) {
    const { reader, changeRequestId } = await this.place(spaceId, changeRequest, viewer);
    const doc = await this.comment(spaceId, changeRequestId, commentId);
    return withEtag(await this.presenter.comment(doc, reader, query.format), doc.streamRevision);
  }

  @Remote(
    arg.id('spaceId'),
    arg.optional(arg.id('changeRequestId')),
    arg.id('commentId'),
    arg.object<ListRepliesQuery>('query'),
    arg.viewer(),
  )
  async listReplies(
    spaceId: string,
    changeRequest: string | undefined,
    commentId: string,
    query: ListRepliesQuery,
    viewer: Viewer,
  ) {
    const { reader, changeRequestId } = await this.place(spaceId, changeRequest, viewer);
    await this.comment(spaceId, changeRequestId, commentId);
    const page = await this.views.find(
      COMMENT_REPLIES,
      pageQuery(query, { where: { comment: commentId }, orderBy: 'postedAt', direction: 'asc' }),
    );
    const items = await Promise.all(page.items.map((doc) => this.presenter.reply(doc, reader, query.format)));
    return toList({ ...page, items }, (item) => item);
  }

  @Remote(
    arg.id('spaceId'),
    arg.optional(arg.id('changeRequestId')),
    arg.id('commentId'),
    arg.id('commentReplyId'),
    arg.object<FormatQuery>('query'),
    arg.viewer(),
  )
  async getReply(
    spaceId: string,
    changeRequest: string | undefined,
    commentId: string,
    replyId: string,
    query: FormatQuery,
    viewer: Viewer,
  ) {
    const { reader, changeRequestId } = await this.place(spaceId, changeRequest, viewer);
    await this.comment(spaceId, changeRequestId, commentId);
    const doc = await this.views.get(COMMENT_REPLIES, replyId);
    if (!doc || doc.comment !== commentId) throw notFound('Comment reply not found');
    return withEtag(await this.presenter.reply(doc, reader, query.format), doc.streamRevision);
  }
}
