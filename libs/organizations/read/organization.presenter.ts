import type { Role } from '@app/platform/domain/roles';
import { Urls } from '@app/platform/http/urls';
import { Injectable } from '@nestjs/common';
import { organizationPermissions } from '../domain/organization.permissions';
import type { OrganizationDoc } from './organization.projection';

/** The API shape of an organization. Billing and trial do not apply to a self-hosted install. */
@Injectable()
export class OrganizationPresenter {
  constructor(private readonly urls: Urls) {}

  present(doc: OrganizationDoc, role: Role | null) {
    return {
      object: 'organization' as const,
      id: doc.id,
      title: doc.title,
      createdAt: doc.createdAt,
      emailDomains: doc.emailDomains,
      ...(doc.hostname ? { hostname: doc.hostname } : {}),
      type: 'business' as const,
      ...(doc.defaultRole !== undefined ? { defaultRole: doc.defaultRole } : {}),
      plan: 'enterprise_2024' as const,
      inviteLinks: doc.inviteLinks ?? true,
      sso: doc.sso ?? false,
      ai: doc.ai ?? false,
      auditLogs: true,
      mergeRules: doc.mergeRules ?? { type: 'none' as const },
      trial: { status: 'notapplicable' as const, count: 0 },
      urls: {
        location: this.urls.api(`/orgs/${doc.id}`),
        app: this.urls.app(`/o/${doc.id}`),
        ...(doc.logo ? { logo: doc.logo } : {}),
      },
      permissions: organizationPermissions(role),
    };
  }
}
