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
import { FAN_OUT_LIMIT } from '@app/platform/projector/projection';
import {
  type CollectionName,
  type Page,
  READ_STORE,
  type ReadStore,
  type Scalar,
} from '@app/platform/readstore/read-store.port';
import { arg, Remote } from '@app/platform/rpc/remote-method';
import { SPACES } from '@app/spaces/read/space.projection';
import { Inject, Injectable } from '@nestjs/common';
import type { ChangeRequestStatus } from '../domain/space-content.decider';
import { ChangeRequestPresenter } from './change-request.presenter';
import {
  CHANGE_REQUESTS,
  type ChangeRequestDoc,
  PARTICIPANTS,
  type ParticipantDoc,
  participantKey,
} from './change-request.projection';
import { REQUESTED_REVIEWERS, REVIEWS, type RequestedReviewerDoc } from './review.projection';
import type { DocumentFormat } from './revision.presenter';

/** GitBook's `ChangeRequestOrderBy`: lists are newest first by this date (default `updatedAt`). */
export type ChangeRequestOrderBy = 'updatedAt' | 'createdAt';

export interface SpaceChangeRequestsQuery extends ListQuery {
  status?: ChangeRequestStatus;
  contributor?: string;
  creator?: string;
  requestedReviewer?: string;
  orderBy?: ChangeRequestOrderBy;
}

export interface ReviewsQuery extends ListQuery {
  outdated?: boolean;
  /** The format of the reviews' comments; `document` when absent. */
  format?: DocumentFormat;
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
  contributor?: string;
  requestedReviewer?: string;
  /** No change request comes from triage here: `none` and `all` list the same ones. */
  finding?: 'none' | 'all';
  orderBy?: ChangeRequestOrderBy;
}

/** What a list of change requests is filtered on, in a space or across an organization. */
interface ListFilter {
  scope: { space: string } | { organization: string };
  statuses: ChangeRequestStatus[];
  space?: string;
  creator?: string;
  contributor?: string;
  requestedReviewer?: string;
  orderBy: ChangeRequestOrderBy;
}

/**
 * The spaces of an organization whose change requests a caller may see, when they may not see them all:
 * those they can read, and the others.
 */
interface Visibility {
  readable: Set<string>;
  hidden: string[];
}

/** A document a list walks: a change request, or a participant naming one. */
type Listed = ChangeRequestDoc | ParticipantDoc;
const changeRequestOf = (doc: Listed): string =>
  typeof doc.role === 'string' ? (doc as ParticipantDoc).changeRequest : doc.id;

/** The store's order: newest first by the field, ties by id, descending. */
const newestFirst =
  (field: ChangeRequestOrderBy) =>
  (a: Listed, b: Listed): number => {
    const x = a[field];
    const y = b[field];
    if (x !== y) return x < y ? 1 : -1;
    return a.id === b.id ? 0 : a.id < b.id ? 1 : -1;
  };

/** Whether `doc` comes after the cursor in that order. */
const isAfter = (doc: Listed, field: ChangeRequestOrderBy, after: { value: Scalar; id: string }) =>
  newestFirst(field)(doc, { ...doc, [field]: after.value, id: after.id } as Listed) > 0;

/** The most documents a list with both user filters walks to intersect them. */
const MAX_INTERSECTED = 10_000;

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

  /**
   * Newest first by `orderBy` (GitBook's default `updatedAt`); `contributor` lists those whose content
   * the user changed, `requestedReviewer` those the user is asked to review and has not yet.
   */
  @Remote(arg.id('spaceId'), arg.object<SpaceChangeRequestsQuery>('query'), arg.viewer())
  async listInSpace(spaceId: string, query: SpaceChangeRequestsQuery, viewer: Viewer) {
    const revision = await this.spaceRevision(spaceId, viewer);
    const page = await this.find(
      {
        scope: { space: spaceId },
        statuses: [query.status ?? ('open' as const)],
        creator: query.creator,
        contributor: query.contributor,
        requestedReviewer: query.requestedReviewer,
        orderBy: query.orderBy ?? 'updatedAt',
      },
      query,
    );
    return this.presented(page, (doc) => this.presenter.present(doc, revision));
  }

  /** Across the organization's spaces, with the space list's filters and order, and several statuses. */
  @Remote(arg.id('organization'), arg.object<OrganizationChangeRequestsQuery>('query'), arg.viewer())
  async listInOrganization(organization: string, query: OrganizationChangeRequestsQuery, viewer: Viewer) {
    await this.access.memberOrGuest(organization, viewer, 'Organization');
    const visible = await this.visibility(organization, viewer);
    const page = await this.find(
      {
        scope: { organization },
        statuses: [...new Set<ChangeRequestStatus>(query.status ?? ['open'])],
        space: query.space,
        creator: query.creator,
        contributor: query.contributor,
        requestedReviewer: query.requestedReviewer,
        orderBy: query.orderBy ?? 'updatedAt',
      },
      query,
      visible,
    );
    const revisions = new Map<string, string>();
    for (const doc of page.items) {
      if (!revisions.has(doc.space))
        revisions.set(doc.space, (await this.views.get(SPACES, doc.space))?.revision ?? '');
    }
    return this.presented(page, (doc) => this.presenter.present(doc, revisions.get(doc.space) ?? ''));
  }

  /**
   * Which spaces of the organization the caller may see the change requests of, as the organization's
   * list of spaces shows them (`visiblePage`); undefined when they may see every one (an admin's).
   */
  private async visibility(organization: string, viewer: Viewer): Promise<Visibility | undefined> {
    if ((await this.access.roleIn(organization, viewer.userId)) === 'admin') return undefined;
    const spaces = (await this.views.find(SPACES, { where: { organization }, limit: FAN_OUT_LIMIT })).items;
    const roles = await this.access.contentRoles(
      spaces.map((space) => space.id),
      viewer,
    );
    const hidden = spaces.filter((space) => !roles.has(space.id)).map((space) => space.id);
    return hidden.length === 0 ? undefined : { readable: new Set(roles.keys()), hidden };
  }

  /**
   * A page of the change requests `filter` selects, of the spaces `visible` lets the caller read (all
   * when undefined). A user filter walks that user's participants (a requested reviewer's first); several
   * statuses are one keyset walk per status from the same cursor (they share the order), merged, and the
   * next page starts after the last shown. With both user filters, the requested reviewer's are walked
   * whole and kept where the contributor is one too. Where some spaces are hidden, the walk is one per
   * readable space when they are fewer than the hidden ones, else one over the organization that skips
   * the hidden spaces' documents, its count less theirs: either way the counts and cursors stay exact.
   */
  private async find(
    filter: ListFilter,
    query: ListQuery,
    visible?: Visibility,
  ): Promise<Page<ChangeRequestDoc>> {
    const limit = query.limit ?? DEFAULT_LIMIT;
    const after = decodePage(query.page);
    if (visible && filter.space !== undefined && !visible.readable.has(filter.space)) {
      return { items: [], count: 0 };
    }
    // Naming a readable space leaves nothing to hide.
    const shown = filter.space === undefined ? visible : undefined;
    const user: [ParticipantDoc['role'], string] | undefined =
      filter.requestedReviewer !== undefined
        ? ['reviewer', filter.requestedReviewer]
        : filter.contributor !== undefined
          ? ['contributor', filter.contributor]
          : undefined;
    const where: Record<string, Scalar> = {
      ...filter.scope,
      ...(filter.space !== undefined ? { space: filter.space } : {}),
      ...(filter.creator !== undefined ? { createdBy: filter.creator } : {}),
      ...(user ? { role: user[0], user: user[1] } : {}),
    };
    const collection: CollectionName<Listed> = user ? PARTICIPANTS : CHANGE_REQUESTS;
    const order = newestFirst(filter.orderBy);
    let items: Listed[];
    let count: number;
    let more: boolean;
    if (filter.requestedReviewer !== undefined && filter.contributor !== undefined) {
      const contributor = filter.contributor;
      const all: Listed[] = [];
      for (const status of filter.statuses) {
        let next: { value: Scalar; id: string } | undefined;
        do {
          const page = await this.views.find(collection, {
            where: { ...where, status },
            orderBy: filter.orderBy,
            direction: 'desc',
            limit: 1000,
            after: next,
          });
          all.push(...page.items);
          next = page.next;
        } while (next && all.length < MAX_INTERSECTED);
      }
      const kept: Listed[] = [];
      for (const doc of all) {
        if (shown && !shown.readable.has(doc.space)) continue;
        const key = participantKey(changeRequestOf(doc), 'contributor', contributor);
        if (await this.views.get(PARTICIPANTS, key)) kept.push(doc);
      }
      kept.sort(order);
      count = kept.length;
      const rest = after ? kept.filter((doc) => isAfter(doc, filter.orderBy, after)) : kept;
      items = rest.slice(0, limit);
      more = rest.length > limit;
    } else if (shown) {
      const walked = await this.findVisible(collection, where, filter, limit, after, shown);
      const merged = walked.items.sort(order);
      items = merged.slice(0, limit);
      more = merged.length > limit || walked.more;
      count = walked.count;
    } else {
      const pages = await Promise.all(
        filter.statuses.map((status) =>
          this.views.find(collection, {
            where: { ...where, status },
            orderBy: filter.orderBy,
            direction: 'desc',
            limit,
            after,
          }),
        ),
      );
      const merged = pages.flatMap((p) => p.items).sort(order);
      items = merged.slice(0, limit);
      more = merged.length > limit || pages.some((p) => p.next !== undefined);
      count = pages.reduce((sum, p) => sum + p.count, 0);
    }
    const last = items.at(-1);
    const next = more && last ? { value: last[filter.orderBy], id: last.id } : undefined;
    const docs = user
      ? (await Promise.all(items.map((p) => this.views.get(CHANGE_REQUESTS, changeRequestOf(p))))).filter(
          (d): d is ChangeRequestDoc => d !== null,
        )
      : (items as ChangeRequestDoc[]);
    return { items: docs, count, ...(next ? { next } : {}) };
  }

  /**
   * Up to `limit` + 1 documents per status after the cursor, of the readable spaces only, with how many
   * there are in all and whether more follow (`find` merges and pages them).
   */
  private async findVisible(
    collection: CollectionName<Listed>,
    where: Record<string, Scalar>,
    filter: ListFilter,
    limit: number,
    after: { value: Scalar; id: string } | undefined,
    visible: Visibility,
  ): Promise<{ items: Listed[]; count: number; more: boolean }> {
    const { organization: _all, ...rest } = where;
    const ordered = { orderBy: filter.orderBy, direction: 'desc' as const };
    if (visible.readable.size <= visible.hidden.length) {
      const pages = await Promise.all(
        filter.statuses.flatMap((status) =>
          [...visible.readable].map((space) =>
            this.views.find(collection, { where: { ...rest, space, status }, ...ordered, limit, after }),
          ),
        ),
      );
      return {
        items: pages.flatMap((page) => page.items),
        count: pages.reduce((sum, page) => sum + page.count, 0),
        more: pages.some((page) => page.next !== undefined),
      };
    }
    const batch = Math.max(2 * limit, 50);
    const walks = await Promise.all(
      filter.statuses.map(async (status) => {
        const kept: Listed[] = [];
        let next = after;
        let count = 0;
        for (let first = true; ; first = false) {
          const page = await this.views.find(collection, {
            where: { ...where, status },
            ...ordered,
            limit: batch,
            after: next,
          });
          if (first) count = page.count;
          kept.push(...page.items.filter((doc) => visible.readable.has(doc.space)));
          if (kept.length > limit) return { items: kept.slice(0, limit + 1), count, more: true };
          if (!page.next) return { items: kept, count, more: false };
          next = page.next;
        }
      }),
    );
    const hidden = await Promise.all(
      filter.statuses.flatMap((status) =>
        visible.hidden.map((space) =>
          this.views.find(collection, { where: { ...rest, space, status }, limit: 1 }),
        ),
      ),
    );
    return {
      items: walks.flatMap((walk) => walk.items),
      count:
        walks.reduce((sum, walk) => sum + walk.count, 0) - hidden.reduce((sum, page) => sum + page.count, 0),
      more: walks.some((walk) => walk.more),
    };
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
    return this.presented(page, (doc) => this.presenter.review(doc, query.format));
  }

  /** A review, its comment in `format` (`document` when absent). */
  @Remote(
    arg.id('spaceId'),
    arg.id('changeRequestId'),
    arg.id('reviewId'),
    arg.viewer(),
    arg.optional(arg.oneOf<DocumentFormat>('format', ['document', 'markdown'])),
  )
  async getReview(spaceId: string, ref: string, reviewId: string, viewer: Viewer, format?: DocumentFormat) {
    await this.spaceRevision(spaceId, viewer);
    const cr = await findChangeRequest(this.views, spaceId, ref);
    const review = await this.views.get(REVIEWS, reviewId);
    if (!review || review.changeRequest !== cr.id) throw notFound('Review not found');
    return this.presenter.review(review, format);
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
