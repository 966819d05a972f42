import { Access, type Viewer } from '@app/platform/auth/access';
import { notFound } from '@app/platform/domain/decider';
import { withEtag } from '@app/platform/http/etag';
import { type ListQuery, pageQuery, toList } from '@app/platform/http/pagination';
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
    const doc = await this.views.get(COLLECTIONS, collectionId);
    if (!doc) throw notFound('Collection not found');
    const role = await this.access.member(doc.organization, viewer, 'Collection');
    return withEtag(this.presenter.present(doc, role), doc.streamRevision);
  }

  @Remote(arg.id('organization'), arg.object<ListCollectionsQuery>('query'), arg.viewer())
  async list(organization: string, query: ListCollectionsQuery, viewer: Viewer) {
    const role = await this.access.member(organization, viewer, 'Organization');
    const where: Record<string, string | null> =
      query.nested === false ? { organization, parent: null } : { organization };
    const page = await this.views.find(COLLECTIONS, pageQuery(query, { where, orderBy: 'position' }));
    return toList(page, (doc) => this.presenter.present(doc, role));
  }
}
