import { Access, type Viewer } from '@app/platform/auth/access';
import { notFound } from '@app/platform/domain/decider';
import { withEtag } from '@app/platform/http/etag';
import {
  decodePage,
  encodePage,
  type ListEnvelope,
  type ListQuery,
  pageQuery,
} from '@app/platform/http/pagination';
import { type Page, READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import { arg, Remote } from '@app/platform/rpc/remote-method';
import { SPACES } from '@app/spaces/read/space.projection';
import { Inject, Injectable } from '@nestjs/common';
import type { ChangeRequestStatus } from '../domain/space-content.decider';
import { ChangeRequestPresenter } from './change-request.presenter';
import { CHANGE_REQUESTS, type ChangeRequestDoc, CONTRIBUTIONS } from './change-request.projection';
import { REQUESTED_REVIEWERS, REVIEWS, type RequestedReviewerDoc } from './review.projection';

export interface SpaceChangeRequestsQuery extends ListQuery {
  status?: ChangeRequestStatus;
  contributor?: string;
  creator?: string;
}

export interface ReviewsQuery extends ListQuery {
  outdated?: boolean;
}

const isIdList = (value: unknown): value is string[] =>
  Array.isArray(value) &&
  value.length <= 100 &&
  value.every((v) => typeof v === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(v));

export interface OrganizationChangeRequestsQuery extends ListQuery {
  /** GitBook's default: `['open']`. */
  status?: ChangeRequestStatus[];
  space?: string;
  creator?: string;
}

/** A change request by id or by its number within the space, as GitBook's paths accept either. */
export async function findChangeRequest(
  views: ReadStore,
  spaceId: string,
  ref: string,
): Promise<ChangeRequestDoc> {
  const doc = /^\d+$/.test(ref)
    ? (await views.find(CHANGE_REQUESTS, { where: { space: spaceId, number: Number(ref) }, limit: 1 }))
        .items[0]
    : await views.get(CHANGE_REQUESTS, ref);
  if (!doc || doc.space !== spaceId) throw notFound('Change request not found');
  return doc;
}

const DEFAULT_LIMIT = 50;

@Injectable()
export class ChangeRequestQueries {
  constructor(
    @Inject(READ_STORE) private readonly views: ReadStore,
    private readonly access: Access,
    private readonly presenter: ChangeRequestPresenter,
  ) {}

  private async spaceRevision(spaceId: string, viewer: Viewer): Promise<string> {
    const space = await this.views.get(SPACES, spaceId);
    if (!space) throw notFound('Space not found');
    await this.access.content(spaceId, viewer, 'Space');
    return space.revision;
  }

  @Remote(arg.id('spaceId'), arg.id('changeRequestId'), arg.viewer())
  async get(spaceId: string, ref: string, viewer: Viewer) {
    const revision = await this.spaceRevision(spaceId, viewer);
    const doc = await findChangeRequest(this.views, spaceId, ref);
    return withEtag(await this.presenter.present(doc, revision), doc.version);
  }

  /** Newest first; `contributor` lists those whose content the user changed. */
  @Remote(arg.id('spaceId'), arg.object<SpaceChangeRequestsQuery>('query'), arg.viewer())
  async listInSpace(spaceId: string, query: SpaceChangeRequestsQuery, viewer: Viewer) {
    const revision = await this.spaceRevision(spaceId, viewer);
    const status = query.status ?? 'open';
    const limit = query.limit ?? DEFAULT_LIMIT;
    const after = decodePage(query.page);
    let docs: ChangeRequestDoc[];
    let count: number;
    let next: { value: string | number | boolean | null; id: string } | undefined;
    if (query.contributor !== undefined) {
      const page = await this.views.find(CONTRIBUTIONS, {
        where: { space: spaceId, user: query.contributor, status },
        orderBy: 'number',
        direction: 'desc',
        limit,
        after,
      });
      const found = await Promise.all(
        page.items.map((c) => this.views.get(CHANGE_REQUESTS, c.changeRequest)),
      );
      docs = found.filter((d): d is ChangeRequestDoc => d !== null);
      ({ count, next } = page);
    } else {
      const page = await this.views.find(CHANGE_REQUESTS, {
        where: { space: spaceId, status, ...(query.creator ? { createdBy: query.creator } : {}) },
        orderBy: 'number',
        direction: 'desc',
        limit,
        after,
      });
      ({ items: docs, count, next } = page);
    }
    return this.presented({ items: docs, count, next }, (doc) => this.presenter.present(doc, revision));
  }

  /**
   * Across the organization's spaces, newest first. Several statuses are one keyset walk per status
   * from the same cursor (they share the order), merged; the next page starts after the last shown.
   */
  @Remote(arg.id('organization'), arg.object<OrganizationChangeRequestsQuery>('query'), arg.viewer())
  async listInOrganization(organization: string, query: OrganizationChangeRequestsQuery, viewer: Viewer) {
    await this.access.member(organization, viewer, 'Organization');
    const limit = query.limit ?? DEFAULT_LIMIT;
    const after = decodePage(query.page);
    const statuses = [...new Set(query.status ?? ['open'])];
    const filter = {
      organization,
      ...(query.space ? { space: query.space } : {}),
      ...(query.creator ? { createdBy: query.creator } : {}),
    };
    const pages = await Promise.all(
      statuses.map((status) =>
        this.views.find(CHANGE_REQUESTS, {
          where: { ...filter, status },
          orderBy: 'createdAt',
          direction: 'desc',
          limit,
          after,
        }),
      ),
    );
    const merged = pages
      .flatMap((p) => p.items)
      .sort((a, b) =>
        a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1,
      );
    const docs = merged.slice(0, limit);
    const last = docs.at(-1);
    const more = merged.length > limit || pages.some((p) => p.next !== undefined);
    const next = more && last ? { value: last.createdAt, id: last.id } : undefined;
    const revisions = new Map<string, string>();
    for (const doc of docs) {
      if (!revisions.has(doc.space))
        revisions.set(doc.space, (await this.views.get(SPACES, doc.space))?.revision ?? '');
    }
    const count = pages.reduce((sum, p) => sum + p.count, 0);
    return this.presented({ items: docs, count, next }, (doc) =>
      this.presenter.present(doc, revisions.get(doc.space) ?? ''),
    );
  }

  /** Newest first; `outdated` false lists only the reviews that still count. */
  @Remote(arg.id('spaceId'), arg.id('changeRequestId'), arg.object<ReviewsQuery>('query'), arg.viewer())
  async listReviews(spaceId: string, ref: string, query: ReviewsQuery, viewer: Viewer) {
    await this.spaceRevision(spaceId, viewer);
    const cr = await findChangeRequest(this.views, spaceId, ref);
    const page = await this.views.find(
      REVIEWS,
      pageQuery(query, {
        where: {
          changeRequest: cr.id,
          ...(query.outdated === undefined ? {} : { outdated: query.outdated }),
        },
        orderBy: 'createdAt',
        direction: 'desc',
      }),
    );
    return this.presented(page, (doc) => this.presenter.review(doc));
  }

  @Remote(arg.id('spaceId'), arg.id('changeRequestId'), arg.id('reviewId'), arg.viewer())
  async getReview(spaceId: string, ref: string, reviewId: string, viewer: Viewer) {
    await this.spaceRevision(spaceId, viewer);
    const cr = await findChangeRequest(this.views, spaceId, ref);
    const review = await this.views.get(REVIEWS, reviewId);
    if (!review || review.changeRequest !== cr.id) throw notFound('Review not found');
    return this.presenter.review(review);
  }

  /** Pending requests to review, oldest first. */
  @Remote(arg.id('spaceId'), arg.id('changeRequestId'), arg.object<ListQuery>('query'), arg.viewer())
  async listRequestedReviewers(spaceId: string, ref: string, query: ListQuery, viewer: Viewer) {
    await this.spaceRevision(spaceId, viewer);
    const cr = await findChangeRequest(this.views, spaceId, ref);
    const page = await this.views.find(
      REQUESTED_REVIEWERS,
      pageQuery(query, { where: { changeRequest: cr.id }, orderBy: 'createdAt' }),
    );
    return this.presented(page, (doc) => this.presenter.requestedReviewer(doc));
  }

  /** The requested reviewers named, as the request answers them. */
  @Remote(
    arg.id('spaceId'),
    arg.id('changeRequestId'),
    arg.shaped('users', isIdList, 'a list of user ids'),
    arg.viewer(),
  )
  async requestedReviewers(spaceId: string, ref: string, users: string[], viewer: Viewer) {
    await this.spaceRevision(spaceId, viewer);
    const cr = await findChangeRequest(this.views, spaceId, ref);
    const docs = await Promise.all(
      users.map((user) => this.views.get(REQUESTED_REVIEWERS, `${cr.id}:${user}`)),
    );
    return {
      users: await Promise.all(
        docs
          .filter((d): d is RequestedReviewerDoc => d !== null)
          .map((d) => this.presenter.requestedReviewer(d)),
      ),
    };
  }

  private async presented<D, T>(page: Page<D>, present: (doc: D) => Promise<T>): Promise<ListEnvelope<T>> {
    return {
      ...(page.next ? { next: { page: encodePage(page.next) } } : {}),
      count: page.count,
      items: await Promise.all(page.items.map(present)),
    };
  }
}
