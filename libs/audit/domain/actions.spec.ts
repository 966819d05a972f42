import { actionLabel, auditAction } from './actions';

describe('auditAction', () => {
  it.each([
    ['SpaceDeleted', 'space.deleted'],
    ['SpaceTransferred', 'space.transferred'],
    ['CollectionCreated', 'collection.created'],
    ['OrganizationCreated', 'organization.created'],
    ['MemberAdded', 'member.added'],
    ['MemberRoleChanged', 'member.role_changed'],
    ['ApiTokenIssued', 'api_token.issued'],
    ['ApiTokenRevoked', 'api_token.revoked'],
    ['SamlProviderCreated', 'saml_provider.created'],
    ['TranslationSettingsCreated', 'translation_settings.created'],
    ['OrganizationUpdated', 'organization.updated'],
    ['UserCreated', 'user.created'],
    ['SSOEnabled', 'sso.enabled'],
  ])('maps %s to %s', (type, action) => {
    expect(auditAction(type)).toBe(action);
  });

  it('does not take a longer word for a multi-word resource', () => {
    expect(auditAction('ApiTokensPurged')).toBe('api.tokens_purged');
  });

  it('keeps a type with a single word as the resource alone', () => {
    expect(auditAction('Space')).toBe('space');
  });
});

describe('actionLabel', () => {
  it.each([
    ['space.deleted', 'Space deleted'],
    ['member.role_changed', 'Member role changed'],
    ['api_token.issued', 'API token issued'],
    ['saml_provider.deleted', 'SAML provider deleted'],
  ])('labels %s as %s', (action, label) => {
    expect(actionLabel(action)).toBe(label);
  });
});
