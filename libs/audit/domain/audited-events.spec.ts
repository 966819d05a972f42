import { FEATURES } from '@app/composition/features';
import { AuditCatalog } from './audited-events';

/**
 * The audited event types of the product and their actions, as published. Clients filter on these names:
 * a change here is a change of the API. A type added later takes its action from its resource and stands
 * beside these; none of these may change.
 */
const ACTIONS: Record<string, string> = {
  OrganizationCreated: 'organization.created',
  OrganizationUpdated: 'organization.updated',
  MemberAdded: 'member.added',
  MemberRoleChanged: 'member.role_changed',
  MemberRemoved: 'member.removed',
  MemberSetAsSso: 'member.set_as_sso',
  MemberSeen: 'member.seen',
  TeamCreated: 'team.created',
  TeamRenamed: 'team.renamed',
  TeamDeleted: 'team.deleted',
  TeamMemberAdded: 'team.member_added',
  TeamMemberRoleChanged: 'team.member_role_changed',
  TeamMemberRemoved: 'team.member_removed',
  InviteLinkCreated: 'invite_link.created',
  InviteLinkUpdated: 'invite_link.updated',
  InviteLinkDeleted: 'invite_link.deleted',
  MemberInvited: 'member.invited',
  CollectionCreated: 'collection.created',
  CollectionUpdated: 'collection.updated',
  CollectionMoved: 'collection.moved',
  CollectionTransferred: 'collection.transferred',
  CollectionDeleted: 'collection.deleted',
  SpaceCreated: 'space.created',
  SpaceUpdated: 'space.updated',
  SpaceDeleted: 'space.deleted',
  SpaceRestored: 'space.restored',
  SpacePurged: 'space.purged',
  SpaceMoved: 'space.moved',
  SpaceTransferred: 'space.transferred',
  UserAccessGranted: 'user.access_granted',
  UserAccessRevoked: 'user.access_revoked',
  TeamAccessGranted: 'team.access_granted',
  TeamAccessRevoked: 'team.access_revoked',
  ChangeRequestCreated: 'change_request.created',
  ChangeRequestUpdated: 'change_request.updated',
  ChangeRequestContentUpdated: 'change_request.content_updated',
  ChangeRequestRebased: 'change_request.rebased',
  ChangeRequestMerged: 'change_request.merged',
  ChangeRequestReviewSubmitted: 'change_request.review_submitted',
  ChangeRequestReviewersRequested: 'change_request.reviewers_requested',
  ChangeRequestReviewerRemoved: 'change_request.reviewer_removed',
  TranslationSettingsCreated: 'translation_settings.created',
  TranslationSettingsUpdated: 'translation_settings.updated',
  TranslationSettingsDeleted: 'translation_settings.deleted',
  SamlProviderCreated: 'saml_provider.created',
  SamlProviderUpdated: 'saml_provider.updated',
  SamlProviderDeleted: 'saml_provider.deleted',
  SamlSignInAccepted: 'saml_sign_in.accepted',
};

/**
 * The actions of the types whose names changed when actions came to be taken from the resources the
 * manifests declare: the resource name had been guessed from the type, a first word unless listed as
 * several, and change requests were not listed. Entries projected before hold these (see
 * `auditProjection`'s `backfillWhen`).
 */
const EARLIER: Record<string, string> = {
  ChangeRequestCreated: 'change.request_created',
  ChangeRequestUpdated: 'change.request_updated',
  ChangeRequestContentUpdated: 'change.request_content_updated',
  ChangeRequestRebased: 'change.request_rebased',
  ChangeRequestMerged: 'change.request_merged',
  ChangeRequestReviewSubmitted: 'change.request_review_submitted',
  ChangeRequestReviewersRequested: 'change.request_reviewers_requested',
  ChangeRequestReviewerRemoved: 'change.request_reviewer_removed',
};

/** How actions were derived from types alone before, to show which names the declarations changed. */
function earlierAction(type: string): string {
  const words = /[A-Z]+(?![a-z])|[A-Z][a-z0-9]*/g;
  const snake = (pascal: string) => (pascal.match(words) ?? []).map((w) => w.toLowerCase()).join('_');
  const resource =
    ['ApiToken', 'InviteLink', 'SamlProvider', 'SamlSignIn', 'TranslationSettings'].find(
      (r) => type.startsWith(r) && /^[A-Z]/.test(type.slice(r.length)),
    ) ?? (type.match(words) ?? [type])[0];
  return `${snake(resource)}.${snake(type.slice(resource.length))}`;
}

const catalog = new AuditCatalog(FEATURES);

describe('AuditCatalog of the product', () => {
  it('gives every published event type its action, from the resource its manifest declares', () => {
    expect(Object.fromEntries(catalog.types.map((type) => [type, catalog.actionOf(type)]))).toMatchObject(
      ACTIONS,
    );
  });

  it('keeps every earlier name but those that split a resource wrongly', () => {
    const changed = Object.keys(ACTIONS).filter((type) => earlierAction(type) !== ACTIONS[type]);
    expect(changed).toEqual(Object.keys(EARLIER));
    for (const type of changed) expect(earlierAction(type)).toBe(EARLIER[type]);
  });

  it('lists each action once, sorted, with its label', () => {
    const ids = catalog.actions.map((a) => a.id);
    expect(ids).toEqual([...new Set(catalog.types.map((type) => catalog.actionOf(type)))].sort());
    expect(ids).toEqual(expect.arrayContaining(Object.values(ACTIONS)));
    expect(catalog.actions).toContainEqual({
      id: 'change_request.review_submitted',
      label: 'Change request review submitted',
    });
  });
});

describe('AuditCatalog', () => {
  const reader = (data: { id: string }) => ({ type: 'thing', id: data.id });

  it('reads the subject and gives the action of a declared type', () => {
    const catalog = new AuditCatalog([
      { name: 'links', audited: { share_link: { ShareLinkDeactivated: reader } } },
    ]);
    expect(catalog.isAudited('ShareLinkDeactivated')).toBe(true);
    expect(catalog.actionOf('ShareLinkDeactivated')).toBe('share_link.deactivated');
    expect(catalog.subjectOf('ShareLinkDeactivated', { id: 'l1' })).toEqual({ type: 'thing', id: 'l1' });
    expect(() => catalog.actionOf('ShareLinkCreated')).toThrow('ShareLinkCreated is not an audited event');
  });

  it('refuses a type declared twice, and a type that does not name its resource', () => {
    expect(
      () =>
        new AuditCatalog([
          { name: 'a', audited: { team: { TeamCreated: reader } } },
          { name: 'b', audited: { team: { TeamCreated: reader } } },
        ]),
    ).toThrow('TeamCreated is declared twice');
    expect(
      () => new AuditCatalog([{ name: 'a', audited: { change: { ChangeRequestCreated: reader } } }]),
    ).not.toThrow();
    expect(
      () => new AuditCatalog([{ name: 'a', audited: { space: { CollectionCreated: reader } } }]),
    ).toThrow('CollectionCreated is not an event of a resource named space');
  });
});
