import { ContentObjectStore, REVISIONS } from '@app/content/content.api';
import { CHANGE_REQUESTS } from '@app/content/read/change-request.projection';
import { type Document, gitbookDocument } from '@app/documents/document';
import { DocumentConversions } from '@app/documents/document/conversions';
import { getPage } from '@app/documents/tree/page-tree';
import { USERS } from '@app/identity/read/identity.projection';
import { presentUser } from '@app/identity/read/user.presenter';
import { atLeast, type Role } from '@app/platform/domain/roles';
import { Urls } from '@app/platform/http/urls';
import { READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import { SPACES } from '@app/spaces/read/space.projection';
import { Inject, Injectable } from '@nestjs/common';
import type { Reaction } from '../domain/comment.decider';
import type { CommentDoc, CommentReplyDoc } from './comment.projection';

/** The format of a body on reads: the seeds show `{markdown}`, so Markdown unless `document` is asked for. */
export type BodyFormat = 'markdown' | 'document';

/** Who reads: their user id and effective role on the space. */
export interface Reader {
  userId: string;
  role: Role;
}

/** GitBook's `Comment` and `CommentReply`, with `permissions` from the reader's role. */
@Injectable()
export class CommentPresenter {
  constructor(
    private readonly urls: Urls,
    @Inject(READ_STORE) private readonly views: ReadStore,
    private readonly conversions: DocumentConversions,
    private readonly objects: ContentObjectStore,
  ) {}

  private async user(id: string) {
    return presentUser(this.urls, id, await this.views.get(USERS, id));
  }

  private async body({ body, markdown }: { body: Document; markdown?: string }, format: BodyFormat) {
    if (format === 'document') return { document: gitbookDocument(body) };
    return { markdown: markdown ?? (await this.conversions.documentToMarkdown(body)) };
  }

  /** GitBook's `EmojiReactions`: one entry per emoji, in the order each was first given. */
  private async reactions(reactions: readonly Reaction[]) {
    const byEmoji = new Map<string, Reaction[]>();
    for (const reaction of reactions)
      byEmoji.set(reaction.emoji, [...(byEmoji.get(reaction.emoji) ?? []), reaction]);
    return Promise.all(
      [...byEmoji].map(async ([emoji, given]) => ({
        emoji,
        count: given.length,
        users: await Promise.all(
          given.map(async (r) => ({ user: await this.user(r.userId), reactedAt: r.reactedAt })),
        ),
      })),
    );
  }

  private permissions(postedBy: string, reader: Reader) {
    const mayChange = postedBy === reader.userId || reader.role === 'admin';
    return { view: true, edit: mayChange, reply: atLeast(reader.role, 'comment'), delete: mayChange };
  }

  private location(doc: { space: string; changeRequest: string | null }, path: string) {
    const place = doc.changeRequest
      ? `/spaces/${doc.space}/change-requests/${doc.changeRequest}`
      : `/spaces/${doc.space}`;
    return this.urls.api(`${place}/comments/${path}`);
  }

  /**
   * The page a comment is on as it is now in the comment's space or change request: `outdated` once its
   * body is not the one commented on, or it is gone (then as it was).
   */
  private async page(doc: CommentDoc, pageId: string) {
    const place = doc.changeRequest
      ? await this.views.get(CHANGE_REQUESTS, doc.changeRequest)
      : await this.views.get(SPACES, doc.space);
    const root = place ? (await this.views.get(REVISIONS, place.revision))?.root : undefined;
    const now = root ? await getPage(this.objects, root, pageId) : undefined;
    const then = doc.pageAt;
    if (!now) {
      return {
        id: pageId,
        ...(then ? { title: then.title, ...(then.path !== undefined ? { path: then.path } : {}) } : {}),
        outdated: true,
      };
    }
    return {
      id: pageId,
      title: now.title,
      ...(now.emoji ? { emoji: now.emoji } : {}),
      ...(now.icon ? { icon: now.icon } : {}),
      ...(now.createdAt ? { createdAt: now.createdAt } : {}),
      ...(now.updatedAt ? { updatedAt: now.updatedAt } : {}),
      ...(now.path !== undefined ? { path: now.path } : {}),
      outdated: (now.documentId ?? null) !== (then?.documentId ?? null),
    };
  }

  async comment(doc: CommentDoc, reader: Reader, format: BodyFormat = 'markdown') {
    return {
      object: 'comment' as const,
      id: doc.id,
      postedBy: await this.user(doc.postedBy),
      postedAt: doc.postedAt,
      ...(doc.editedAt ? { editedAt: doc.editedAt } : {}),
      reactions: await this.reactions(doc.reactions),
      replies: doc.replies,
      repliers: await Promise.all(
        doc.repliers.map(async (r) => ({
          user: await this.user(r.userId),
          count: r.count,
          updatedAt: r.updatedAt,
        })),
      ),
      body: await this.body(doc, format),
      target: {
        space: doc.space,
        revision: doc.revision,
        ...(doc.changeRequest ? { changeRequest: doc.changeRequest } : {}),
        ...(doc.review ? { review: doc.review } : {}),
        ...(doc.page ? { page: await this.page(doc, doc.page) } : {}),
        ...(doc.node
          ? { node: { id: doc.node, ...(doc.preview !== undefined ? { preview: doc.preview } : {}) } }
          : {}),
        ...(doc.tableCell ? { tableCell: doc.tableCell } : {}),
      },
      urls: { location: this.location(doc, doc.id) },
      permissions: this.permissions(doc.postedBy, reader),
      ...(doc.status === 'resolved' && doc.resolvedAt && doc.resolvedBy
        ? {
            status: 'resolved' as const,
            resolvedAt: doc.resolvedAt,
            resolvedBy: await this.user(doc.resolvedBy),
          }
        : { status: 'open' as const }),
    };
  }

  async reply(doc: CommentReplyDoc, reader: Reader, format: BodyFormat = 'markdown') {
    return {
      object: 'comment-reply' as const,
      id: doc.id,
      postedBy: await this.user(doc.postedBy),
      postedAt: doc.postedAt,
      ...(doc.editedAt ? { editedAt: doc.editedAt } : {}),
      reactions: await this.reactions(doc.reactions),
      body: await this.body(doc, format),
      urls: { location: this.location(doc, `${doc.comment}/replies/${doc.id}`) },
      permissions: this.permissions(doc.postedBy, reader),
    };
  }
}
