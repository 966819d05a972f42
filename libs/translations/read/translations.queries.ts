import { Access, type Viewer } from '@app/platform/auth/access';
import { notFound } from '@app/platform/domain/decider';
import { withEtag } from '@app/platform/http/etag';
import { type ListQuery, pageQuery, toList } from '@app/platform/http/pagination';
import { READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import { arg, Remote } from '@app/platform/rpc/remote-method';
import { Inject, Injectable } from '@nestjs/common';
import { TranslationPresenter } from './translation.presenter';
import { TRANSLATIONS, type TranslationDoc } from './translation.projection';

/** The settings, when they belong to the organization (another organization's id is not found). */
export async function translationIn(
  views: ReadStore,
  organization: string,
  translationId: string,
): Promise<TranslationDoc> {
  const doc = await views.get(TRANSLATIONS, translationId);
  if (!doc || doc.organization !== organization) throw notFound('Translation settings not found');
  return doc;
}

@Injectable()
export class TranslationQueries {
  constructor(
    @Inject(READ_STORE) private readonly views: ReadStore,
    private readonly access: Access,
    private readonly presenter: TranslationPresenter,
  ) {}

  @Remote(arg.id('organization'), arg.id('translationId'), arg.viewer())
  async get(organization: string, translationId: string, viewer: Viewer) {
    const role = await this.access.member(organization, viewer, 'Organization');
    const doc = await translationIn(this.views, organization, translationId);
    return withEtag(this.presenter.present(doc, role), doc.streamRevision);
  }

  @Remote(arg.id('organization'), arg.object<ListQuery>('query'), arg.viewer())
  async list(organization: string, query: ListQuery, viewer: Viewer) {
    const role = await this.access.member(organization, viewer, 'Organization');
    const page = await this.views.find(
      TRANSLATIONS,
      pageQuery(query, { where: { organization }, orderBy: 'createdAt' }),
    );
    return toList(page, (doc) => this.presenter.present(doc, role));
  }
}
