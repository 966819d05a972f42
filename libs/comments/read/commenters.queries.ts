import { findChangeRequest } from '@app/content/read/change-requests.queries';
import { USERS } from '@app/identity/read/identity.projection';
import { MemberPresenter } from '@app/members/read/member.presenter';
import { MEMBER_DETAILS } from '@app/members/read/member.projection';
import { Access, MEMBERS, type MemberDoc, type Viewer } from '@app/platform/auth/access';
import { CONTENT_ACCESS } from '@app/platform/auth/auth-views';
import { memberKey } from '@app/platform/auth/member-key';
import { effectiveRole } from '@app/platform/domain/content-access';
import { type ListQuery, offsetPage } from '@app/platform/http/pagination';
import { FAN_OUT_LIMIT } from '@app/platform/projector/projection';
import { READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import { arg, Remote } from '@app/platform/rpc/remote-method';
import { SPACES } from '@app/spaces/read/space.projection';
import { Inject, Injectable } from '@nestjs/common';
import { COMMENT_REPLIES, COMMENTS } from './comment.projection';

/**
 * GitBook's `listCommentersInSpace` and `listCommentersInChangeRequest`: the members of the space's
 * organization who posted a comment or a reply there, each once, in the order they first did, as GitBook's
 * `OrganizationMember`. Someone who has left the organization is no member to show.
 */
@Injectable()
export class CommenterQueries {
  constructor(
    @Inject(READ_STORE) private readonly views: ReadStore,
    private readonly access: Access,
    private readonly presenter: MemberPresenter,
  ) {}

  @Remote(
    arg.id('spaceId'),
    arg.optional(arg.id('changeRequestId')),
    arg.object<ListQuery>('query'),
    arg.viewer(),
  )
  async list(spaceId: string, changeRequest: string | undefined, query: ListQuery, viewer: Viewer) {
    const { organization } = await this.access.content(spaceId, viewer, 'Space');
    const changeRequestId =
      changeRequest === undefined ? null : (await findChangeRequest(this.views, spaceId, changeRequest)).id;
    const where = { space: spaceId, changeRequest: changeRequestId };
    const [comments, replies] = await Promise.all([
      this.views.find(COMMENTS, { where, orderBy: 'postedAt', limit: FAN_OUT_LIMIT }),
      this.views.find(COMMENT_REPLIES, { where, orderBy: 'postedAt', limit: FAN_OUT_LIMIT }),
    ]);
    const posts = [...comments.items, ...replies.items].sort((a, b) => a.postedAt.localeCompare(b.postedAt));
    const members: MemberDoc[] = [];
    for (const userId of new Set(posts.map((post) => post.postedBy))) {
      const member = await this.views.get(MEMBERS, memberKey(organization, userId));
      if (member) members.push(member);
    }
    const page = offsetPage(members, query, query.limit ?? 50);
    const items = await Promise.all(page.items.map((member) => this.present(organization, member)));
    return { ...page.next, count: members.length, items };
  }

  /** The member as the members' list shows them: their teams and the live spaces they reach, counted. */
  private async present(organization: string, member: MemberDoc) {
    const key = memberKey(organization, member.userId);
    const [user, details, teams, spaces] = await Promise.all([
      this.views.get(USERS, member.userId),
      this.views.get(MEMBER_DETAILS, key),
      this.access.teamsOf(organization, member.userId),
      this.views.find(SPACES, { where: { organization, deleted: false }, limit: FAN_OUT_LIMIT }),
    ]);
    let reached = 0;
    for (const space of spaces.items) {
      const access = await this.views.get(CONTENT_ACCESS, space.id);
      if (access && effectiveRole(member.role, access, member.userId, teams) !== null) reached++;
    }
    return this.presenter.present({ member, user, details, teams: teams.length, spaces: reached });
  }
}
