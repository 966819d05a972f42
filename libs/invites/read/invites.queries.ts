import { Access, type Viewer } from '@app/platform/auth/access';
import { notFound } from '@app/platform/domain/decider';
import { withEtag } from '@app/platform/http/etag';
import { type ListQuery, pageQuery, toList } from '@app/platform/http/pagination';
import { READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import { arg, Remote } from '@app/platform/rpc/remote-method';
import { Inject, Injectable } from '@nestjs/common';
import { InvitePresenter } from './invite.presenter';
import { INVITE_LINKS } from './invite.projection';

@Injectable()
export class InviteQueries {
  constructor(
    @Inject(READ_STORE) private readonly views: ReadStore,
    private readonly access: Access,
    private readonly presenter: InvitePresenter,
  ) {}

  @Remote(arg.id('organization'), arg.id('inviteId'), arg.viewer())
  async get(organization: string, inviteId: string, viewer: Viewer) {
    const role = await this.access.member(organization, viewer, 'Organization');
    const doc = await this.views.get(INVITE_LINKS, inviteId);
    if (!doc || doc.organization !== organization) throw notFound('Invite not found');
    return withEtag(this.presenter.present(doc, role), doc.streamRevision);
  }

  @Remote(arg.id('organization'), arg.object<ListQuery>('query'), arg.viewer())
  async list(organization: string, query: ListQuery, viewer: Viewer) {
    const role = await this.access.member(organization, viewer, 'Organization');
    const page = await this.views.find(
      INVITE_LINKS,
      pageQuery(query, { where: { organization }, orderBy: 'createdAt' }),
    );
    return toList(page, (doc) => this.presenter.present(doc, role));
  }
}
