import { Access, MEMBERS, type Viewer } from '@app/platform/auth/access';
import { notFound } from '@app/platform/domain/decider';
import { type ListQuery, pageQuery, toList } from '@app/platform/http/pagination';
import { READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import { arg, Remote } from '@app/platform/rpc/remote-method';
import { Inject, Injectable } from '@nestjs/common';
import { OrganizationPresenter } from './organization.presenter';
import { ORGANIZATIONS } from './organization.projection';

@Injectable()
export class OrganizationQueries {
  constructor(
    @Inject(READ_STORE) private readonly views: ReadStore,
    private readonly access: Access,
    private readonly presenter: OrganizationPresenter,
  ) {}

  /** The caller's organizations, paged over their memberships. */
  @Remote(arg.viewer(), arg.object<ListQuery>('query'))
  async listForViewer(viewer: Viewer, query: ListQuery) {
    const page = await this.views.find(
      MEMBERS,
      pageQuery(query, { where: { userId: viewer.userId }, orderBy: 'organization' }),
    );
    const orgs = await Promise.all(page.items.map((m) => this.views.get(ORGANIZATIONS, m.organization)));
    return toList(
      { ...page, items: page.items.map((m, i) => ({ member: m, org: orgs[i] })) },
      ({ member, org }) => this.presenter.present(org ?? missing(member.organization), member.role),
    );
  }

  @Remote(arg.id('organizationId'), arg.viewer())
  async get(organizationId: string, viewer: Viewer) {
    const role = await this.access.member(organizationId, viewer, 'Organization');
    const org = await this.views.get(ORGANIZATIONS, organizationId);
    if (!org) throw notFound('Organization not found');
    return this.presenter.present(org, role);
  }
}

function missing(id: string): never {
  throw new Error(`membership of organization ${id} has no organization view`);
}
