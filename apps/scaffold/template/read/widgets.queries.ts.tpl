import { Access, type Viewer } from '@app/platform/auth/access';
import { notFound } from '@app/platform/domain/decider';
import { withEtag } from '@app/platform/http/etag';
import { type ListQuery, pageQuery, toList } from '@app/platform/http/pagination';
import { READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import { arg, Remote } from '@app/platform/rpc/remote-method';
import { Inject, Injectable } from '@nestjs/common';
import { WidgetPresenter } from './widget.presenter';
import { WIDGETS } from './widget.projection';

/** Members see __labels__ with `permissions` from their role (the routes checked they are members). */
@Injectable()
export class WidgetQueries {
  constructor(
    @Inject(READ_STORE) private readonly views: ReadStore,
    private readonly access: Access,
    private readonly presenter: WidgetPresenter,
  ) {}

  @Remote(arg.id('widgetId'), arg.viewer())
  async get(widgetId: string, viewer: Viewer) {
    const doc = await this.views.get(WIDGETS, widgetId);
    if (!doc) throw notFound('__Label__ not found');
    const role = await this.access.member(doc.organization, viewer, '__Label__');
    return withEtag(this.presenter.present(doc, role), doc.streamRevision);
  }

  @Remote(arg.id('organization'), arg.object<ListQuery>('query'), arg.viewer())
  async list(organization: string, query: ListQuery, viewer: Viewer) {
    const role = await this.access.member(organization, viewer, 'Organization');
    const page = await this.views.find(WIDGETS, pageQuery(query, { where: { organization }, orderBy: 'createdAt' }));
    return toList(page, (doc) => this.presenter.present(doc, role));
  }
}
