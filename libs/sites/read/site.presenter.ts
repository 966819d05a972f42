import type { Role } from '@app/platform/domain/roles';
import { Urls } from '@app/platform/http/urls';
import { Injectable } from '@nestjs/common';
import { type AdaptiveJsonSchema, DEFAULT_ADAPTIVE_SCHEMA } from '../domain/adaptive-schema';
import { sitePermissions } from '../domain/site.permissions';
import type { SiteDoc } from './site.projection';

/** GitBook's `Site` (with the seeds' `agentsContext`). */
@Injectable()
export class SitePresenter {
  constructor(private readonly urls: Urls) {}

  present(doc: SiteDoc, role: Role) {
    const app = this.urls.app(`/o/${doc.organization}/sites/${doc.id}`);
    // The address the site is served at by this server; a proxy serves it at its origin instead.
    const own = `${app}/published`;
    return {
      object: 'site' as const,
      id: doc.id,
      type: doc.type,
      appliedType: doc.type,
      title: doc.title,
      ...(doc.basename !== undefined ? { basename: doc.basename } : {}),
      ...(doc.proxy !== undefined ? { proxy: { origin: doc.proxy, target: own } } : {}),
      visibility: doc.visibility,
      // Sites have no level of their own here: each member's organization role applies.
      defaultLevel: 'inherit' as const,
      permissions: sitePermissions(role),
      published: doc.published,
      siteSpaces: doc.siteSpaces,
      createdAt: doc.createdAt,
      adaptiveContent: { enabled: doc.adaptiveContent },
      agentsContext: doc.agentsContext,
      features: [],
      urls: {
        location: this.urls.api(`/orgs/${doc.organization}/sites/${doc.id}`),
        app,
        preview: `${app}/preview`,
        ...(doc.published ? { published: doc.proxy !== undefined ? `https://${doc.proxy}` : own } : {}),
      },
    };
  }

  /** GitBook's `SiteAdaptiveSchema`: no claim, as of the site's creation, until one is set. */
  adaptiveSchema(doc: SiteDoc) {
    return {
      object: 'site-adaptive-schema' as const,
      jsonSchema: doc.adaptiveSchema
        ? (JSON.parse(doc.adaptiveSchema.json) as AdaptiveJsonSchema)
        : DEFAULT_ADAPTIVE_SCHEMA,
      updatedAt: doc.adaptiveSchema?.updatedAt ?? doc.createdAt,
    };
  }
}
