import { Access, type Viewer } from '@app/platform/auth/access';
import { visiblePage } from '@app/platform/auth/visible-page';
import { notFound } from '@app/platform/domain/decider';
import { withEtag } from '@app/platform/http/etag';
import { type ListQuery, toList } from '@app/platform/http/pagination';
import { READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import { arg, Remote } from '@app/platform/rpc/remote-method';
import { Inject, Injectable } from '@nestjs/common';
import { CollectionPresenter } from './collection.presenter';
import { COLLECTIONS } from './collection.projection';

/** `nested: false` lists the top level only. */
export interface ListCollectionsQuery extends ListQuery {
  nested?: boolean;
}

@Injectable()
export class CollectionQueries {
  constructor(
    @Inject(READ_STORE) private readonly views: ReadStore,
    private readonly access: Access,
    private readonly presenter: CollectionPresenter,
  ) {}

  @Remote(arg.id('collectionId'), arg.viewer())
  async get(collectionId: string, viewer: Viewer) {
    const { role } = await this.access.content(collectionId, viewer, 'Collection');
    const doc = await this.views.get(COLLECTIONS, collectionId);
    if (!doc) throw notFound('Collection not found');
    return withEtag(this.presenter.present(doc, role), doc.streamRevision);
  }

  @Remote(arg.id('organization'), arg.object<ListCollectionsQuery>('query'), arg.viewer())
  async list(organization: string, query: ListCollectionsQuery, viewer: Viewer) {
    await this.access.memberOrGuest(organization, viewer, 'Organization');
    const where: Record<string, string | null> =
      query.nested === false ? { organization, parent: null } : { organization };
    const base = { where, orderBy: 'position' };
    const page = await visiblePage(this.access, this.views, COLLECTIONS, organization, query, base, viewer);
    return toList(page, ({ doc, role }) => this.presenter.present(doc, role));
  }
}
