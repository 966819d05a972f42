import { Access, type Viewer } from '@app/platform/auth/access';
import { notFound } from '@app/platform/domain/decider';
import { withEtag } from '@app/platform/http/etag';
import { DEFAULT_PAGE_SIZE, type ListQuery, offsetPage } from '@app/platform/http/pagination';
import { READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import { arg, Remote } from '@app/platform/rpc/remote-method';
import { Inject, Injectable } from '@nestjs/common';
import { InvitePresenter } from './invite.presenter';
import { INVITE_LINKS } from './invite.projection';

/** More links than an organization has. */
const ALL = 10_000;

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
    const presented =
      doc?.organization === organization && (await this.presenter.present(doc, role, viewer.userId));
    if (!doc || !presented) throw notFound('Invite not found');
    return withEtag(presented, doc.streamRevision);
  }

  @Remote(arg.id('organization'), arg.object<ListQuery>('query'), arg.viewer())
  async list(organization: string, query: ListQuery, viewer: Viewer) {
    const role = await this.access.member(organization, viewer, 'Organization');
    // GitBook's list holds the links to the organization; those to content are read one by one.
    const links = await this.views.find(INVITE_LINKS, {
      where: { organization },
      orderBy: 'createdAt',
      limit: ALL,
    });
    const own = links.items.filter((doc) => !doc.target);
    const page = offsetPage(own, query, query.limit ?? DEFAULT_PAGE_SIZE);
    const items = await Promise.all(
      page.items.map((doc) => this.presenter.present(doc, role, viewer.userId)),
    );
    return { ...page.next, count: own.length, items };
  }
}
