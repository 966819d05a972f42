import { actionLabel, auditAction, pascalOf } from './actions';

describe('auditAction', () => {
  it.each([
    ['space', 'SpaceDeleted', 'space.deleted'],
    ['member', 'MemberRoleChanged', 'member.role_changed'],
    ['api_token', 'ApiTokenIssued', 'api_token.issued'],
    ['change_request', 'ChangeRequestReviewSubmitted', 'change_request.review_submitted'],
    ['share_link', 'ShareLinkDeactivated', 'share_link.deactivated'],
    ['translation_settings', 'TranslationSettingsCreated', 'translation_settings.created'],
    ['member', 'MemberSetAsSso', 'member.set_as_sso'],
    ['organization', 'OrganizationSSOEnabled', 'organization.sso_enabled'],
  ])('maps %s %s to %s', (resource, type, action) => {
    expect(auditAction(resource, type)).toBe(action);
  });

  it.each([
    ['api_token', 'ApiTokensPurged'],
    ['space', 'Space'],
    ['space', 'CollectionCreated'],
    ['change', 'ChangerequestCreated'],
    ['ChangeRequest', 'ChangeRequestCreated'],
    ['change-request', 'ChangeRequestCreated'],
  ])('refuses %s %s: the type does not name the resource, then a word', (resource, type) => {
    expect(() => auditAction(resource, type)).toThrow(
      `${type} is not an event of a resource named ${resource}`,
    );
  });

  it('names a resource in PascalCase as event types do', () => {
    expect(pascalOf('saml_sign_in')).toBe('SamlSignIn');
  });
});

describe('actionLabel', () => {
  it.each([
    ['space.deleted', 'Space deleted'],
    ['member.role_changed', 'Member role changed'],
    ['api_token.issued', 'API token issued'],
    ['saml_provider.deleted', 'SAML provider deleted'],
    ['change_request.review_submitted', 'Change request review submitted'],
  ])('labels %s as %s', (action, label) => {
    expect(actionLabel(action)).toBe(label);
  });
});
