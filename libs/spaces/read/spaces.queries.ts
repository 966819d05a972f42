import { COLLECTIONS } from '@app/collections/read/collection.projection';
import { Access, type Viewer } from '@app/platform/auth/access';
import { notFound } from '@app/platform/domain/decider';
import { withEtag } from '@app/platform/http/etag';
import { type ListQueryDto, pageQuery, toList } from '@app/platform/http/pagination';
import { READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import { arg, Remote } from '@app/platform/rpc/remote-method';
import { Inject, Injectable } from '@nestjs/common';
import { SpacePresenter } from './space.presenter';
import { SPACES } from './space.projection';

/** Members see spaces with `permissions` from their role (the routes checked they are members). */
@Injectable()
export class SpaceQueries {
  constructor(
    @Inject(READ_STORE) private readonly views: ReadStore,
    private readonly access: Access,
    private readonly presenter: SpacePresenter,
  ) {}

  @Remote(arg.id('spaceId'), arg.viewer())
  async get(spaceId: string, viewer: Viewer) {
    const doc = await this.views.get(SPACES, spaceId);
    if (!doc) throw notFound('Space not found');
    const role = await this.access.member(doc.organization, viewer, 'Space');
    return withEtag(this.presenter.present(doc, role), doc.streamRevision);
  }

  @Remote(arg.id('organization'), arg.object<ListQueryDto>('query'), arg.viewer())
  async listInOrganization(organization: string, query: ListQueryDto, viewer: Viewer) {
    const role = await this.access.member(organization, viewer, 'Organization');
    const page = await this.views.find(
      SPACES,
      pageQuery(query, { where: { organization, deleted: false }, orderBy: 'position' }),
    );
    return toList(page, (doc) => this.presenter.present(doc, role));
  }

  @Remote(arg.id('collectionId'), arg.object<ListQueryDto>('query'), arg.viewer())
  async listInCollection(collectionId: string, query: ListQueryDto, viewer: Viewer) {
    const collection = await this.views.get(COLLECTIONS, collectionId);
    if (!collection) throw notFound('Collection not found');
    const role = await this.access.member(collection.organization, viewer, 'Collection');
    const page = await this.views.find(
      SPACES,
      pageQuery(query, { where: { parent: collectionId, deleted: false }, orderBy: 'position' }),
    );
    return toList(page, (doc) => this.presenter.present(doc, role));
  }
}
