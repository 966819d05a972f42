import { gitbookDocument } from '@app/documents/document';
import { DocumentConversions } from '@app/documents/document/conversions';
import type { FileObject } from '@app/documents/tree/content';
import { USERS } from '@app/identity/read/identity.projection';
import { presentUser } from '@app/identity/read/user.presenter';
import { Urls } from '@app/platform/http/urls';
import { READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import { Inject, Injectable } from '@nestjs/common';
import type { PageOutcome, ReviewComment } from '../domain/space-content.decider';
import type { ChangeRequestDoc } from './change-request.projection';
import type { RequestedReviewerDoc, ReviewDoc } from './review.projection';
import { type DocumentFormat, presentFile } from './revision.presenter';

/** GitBook's `ChangeRequest`. `outdated` compares its base with the space's current revision. */
@Injectable()
export class ChangeRequestPresenter {
  constructor(
    private readonly urls: Urls,
    @Inject(READ_STORE) private readonly views: ReadStore,
    private readonly conversions: DocumentConversions,
  ) {}

  private async user(id: string) {
    return presentUser(this.urls, id, await this.views.get(USERS, id));
  }

  /**
   * GitBook's `ChangeRequestReview`, its comment's body in `format`. The comment is kept with the review as
   * it was given; it is also a comment of the change request (libs/comments, under the same id), where it
   * is replied to, reacted to and resolved.
   */
  async review(doc: ReviewDoc, format: DocumentFormat = 'document') {
    const location = this.urls.api(
      `/spaces/${doc.space}/change-requests/${doc.changeRequest}/reviews/${doc.id}`,
    );
    return {
      object: 'change-request-review' as const,
      id: doc.id,
      revision: doc.revision,
      reviewer: await this.user(doc.reviewer),
      ...(doc.requestedBy ? { requestedBy: await this.user(doc.requestedBy) } : {}),
      status: doc.status,
      outdated: doc.outdated,
      ...(doc.comment ? { comment: await this.reviewComment(doc, doc.comment, format) } : {}),
      createdAt: doc.createdAt,
      updatedAt: doc.updatedAt,
      urls: { location },
    };
  }

  /** GitBook's `Comment`, as the review's. */
  private async reviewComment(review: ReviewDoc, comment: ReviewComment, format: DocumentFormat) {
    return {
      object: 'comment' as const,
      id: comment.id,
      status: 'open' as const,
      postedBy: await this.user(review.reviewer),
      postedAt: review.createdAt,
      reactions: [],
      replies: 0,
      repliers: [],
      body:
        format === 'markdown'
          ? { markdown: await this.conversions.documentToMarkdown(comment.body) }
          : { document: gitbookDocument(comment.body) },
      target: {
        space: review.space,
        revision: review.revision,
        changeRequest: review.changeRequest,
        review: review.id,
      },
      urls: {
        location: this.urls.api(
          `/spaces/${review.space}/change-requests/${review.changeRequest}/comments/${comment.id}`,
        ),
      },
      permissions: { view: true, edit: false, reply: false, delete: false },
    };
  }

  /** GitBook's `ChangeRequestRequestedReviewer` (users only: teams come with the organization area). */
  async requestedReviewer(doc: RequestedReviewerDoc) {
    return {
      object: 'change-request-requested-reviewer' as const,
      revision: doc.revision,
      requestedBy: await this.user(doc.requestedBy ?? 'system'),
      createdAt: doc.createdAt,
      kind: 'user' as const,
      user: await this.user(doc.user),
    };
  }

  async present(doc: ChangeRequestDoc, spaceRevision: string) {
    const createdBy = doc.createdBy ?? 'system';
    return {
      object: 'change-request' as const,
      id: doc.id,
      number: doc.number,
      status: doc.status,
      subject: doc.subject,
      createdBy: await this.user(createdBy),
      createdAt: doc.createdAt,
      updatedAt: doc.updatedAt,
      ...(doc.mergedBy ? { mergedBy: await this.user(doc.mergedBy) } : {}),
      ...(doc.mergedAt ? { mergedAt: doc.mergedAt } : {}),
      space: doc.space,
      revision: doc.revision,
      revisionInitial: doc.revisionInitial,
      ...(doc.revisionMergedAncestor ? { revisionMergedAncestor: doc.revisionMergedAncestor } : {}),
      ...(doc.revisionMerged ? { revisionMerged: doc.revisionMerged } : {}),
      comments: doc.comments,
      ...(doc.description ? { description: gitbookDocument(doc.description) } : {}),
      ...(doc.links?.length ? { links: doc.links } : {}),
      outdated: doc.status !== 'merged' && doc.base !== spaceRevision,
      urls: {
        location: this.urls.api(`/spaces/${doc.space}/change-requests/${doc.id}`),
        app: this.urls.app(`/o/${doc.organization}/s/${doc.space}/~/changes/${doc.number}`),
      },
    };
  }
}

/** What a batch of content changes did, as GitBook answers it with `compat=false`. */
export function presentContentUpdate(
  urls: Urls,
  spaceId: string,
  written: { changeRequestId: string; outcomes: PageOutcome[]; insertedFiles: FileObject[] },
) {
  const pageRef = (id: string) => ({
    object: 'page' as const,
    id,
    urls: {
      location: urls.api(`/spaces/${spaceId}/change-requests/${written.changeRequestId}/content/page/${id}`),
    },
  });
  return {
    changes: written.outcomes.map((o) =>
      o.object === 'deleted_page'
        ? o
        : o.object === 'created_page'
          ? { object: o.object, ...(o.ref ? { ref: o.ref } : {}), page: pageRef(o.page) }
          : { object: o.object, page: pageRef(o.page) },
    ),
    insertedFiles: written.insertedFiles.map(presentFile),
  };
}
