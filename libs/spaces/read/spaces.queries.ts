import { Access, type Viewer } from '@app/platform/auth/access';
import { visiblePage } from '@app/platform/auth/visible-page';
import { notFound } from '@app/platform/domain/decider';
import { withEtag } from '@app/platform/http/etag';
import { type ListQueryDto, toList } from '@app/platform/http/pagination';
import { READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import { arg, Remote } from '@app/platform/rpc/remote-method';
import { Inject, Injectable } from '@nestjs/common';
import { SpacePresenter } from './space.presenter';
import { SPACES } from './space.projection';

/** Callers see the spaces they can reach, with `permissions` from their effective role on each. */
@Injectable()
export class SpaceQueries {
  constructor(
    @Inject(READ_STORE) private readonly views: ReadStore,
    private readonly access: Access,
    private readonly presenter: SpacePresenter,
  ) {}

  @Remote(arg.id('spaceId'), arg.viewer())
  async get(spaceId: string, viewer: Viewer) {
    const { role } = await this.access.content(spaceId, viewer, 'Space');
    const doc = await this.views.get(SPACES, spaceId);
    if (!doc) throw notFound('Space not found');
    return withEtag(this.presenter.present(doc, role), doc.streamRevision);
  }

  @Remote(arg.id('organization'), arg.object<ListQueryDto>('query'), arg.viewer())
  async listInOrganization(organization: string, query: ListQueryDto, viewer: Viewer) {
    await this.access.memberOrGuest(organization, viewer, 'Organization');
    const base = { where: { organization, deleted: false }, orderBy: 'position' };
    const page = await visiblePage(this.access, this.views, SPACES, organization, query, base, viewer);
    return toList(page, ({ doc, role }) => this.presenter.present(doc, role));
  }

  @Remote(arg.id('collectionId'), arg.object<ListQueryDto>('query'), arg.viewer())
  async listInCollection(collectionId: string, query: ListQueryDto, viewer: Viewer) {
    const { organization } = await this.access.content(collectionId, viewer, 'Collection');
    const base = { where: { parent: collectionId, deleted: false }, orderBy: 'position' };
    const page = await visiblePage(this.access, this.views, SPACES, organization, query, base, viewer);
    return toList(page, ({ doc, role }) => this.presenter.present(doc, role));
  }
}
