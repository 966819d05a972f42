import { Access, MEMBERS, reaches, type Viewer } from '@app/platform/auth/access';
import { notFound } from '@app/platform/domain/decider';
import { type ListQuery, pageQuery, toList } from '@app/platform/http/pagination';
import { READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import { arg, Remote } from '@app/platform/rpc/remote-method';
import { Inject, Injectable } from '@nestjs/common';
import { OrganizationPresenter } from './organization.presenter';
import { EMAIL_DOMAINS, ORGANIZATIONS } from './organization.projection';

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
    // A sign-in's token acts in its organization only: the others are not listed.
    const where: Record<string, string> = { userId: viewer.userId };
    if (viewer.organization !== undefined) where.organization = viewer.organization;
    const page = await this.views.find(MEMBERS, pageQuery(query, { where, orderBy: 'organization' }));
    const orgs = await Promise.all(page.items.map((m) => this.views.get(ORGANIZATIONS, m.organization)));
    return toList(
      { ...page, items: page.items.map((m, i) => ({ member: m, org: orgs[i] })) },
      ({ member, org }) => this.presenter.present(org ?? missing(member.organization), member.role),
    );
  }

  /**
   * The caller's organizations whose email domains include `domain` (lower case). Organizations the
   * caller is not a member of are left out: nothing here lets anyone join one, and listing them would
   * reveal their names to anyone who guesses a domain.
   */
  @Remote(arg.text('domain', /^[a-z0-9.-]{1,253}$/, 'a domain name in lower case'), arg.viewer())
  async listForEmailDomain(domain: string, viewer: Viewer) {
    const listed = await this.views.find(EMAIL_DOMAINS, {
      where: { domain },
      orderBy: 'organization',
      limit: 1000,
    });
    const found = await Promise.all(
      listed.items.map(async ({ organization }) => {
        const role = reaches(viewer, organization)
          ? await this.access.roleIn(organization, viewer.userId)
          : null;
        const org = role ? await this.views.get(ORGANIZATIONS, organization) : null;
        return org && role ? this.presenter.present(org, role) : null;
      }),
    );
    return { organizations: found.filter((org) => org !== null) };
  }

  @Remote(arg.id('organizationId'), arg.viewer())
  async get(organizationId: string, viewer: Viewer) {
    const role = await this.access.memberOrGuest(organizationId, viewer, 'Organization');
    const org = await this.views.get(ORGANIZATIONS, organizationId);
    if (!org) throw notFound('Organization not found');
    return this.presenter.present(org, role);
  }
}

function missing(id: string): never {
  throw new Error(`membership of organization ${id} has no organization view`);
}
