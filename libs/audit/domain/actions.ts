/**
 * Resources whose names span several words. An event type starts with its resource's name, so the
 * longest known prefix is the resource and the rest is what happened to it.
 */
const MULTI_WORD_RESOURCES = ['ApiToken', 'InviteLink', 'SamlProvider', 'SamlSignIn', 'TranslationSettings'];

/** Words of a PascalCase name; a run of capitals is one word (`SSOEnabled` is `SSO`, `Enabled`). */
const WORDS = /[A-Z]+(?![a-z])|[A-Z][a-z0-9]*/g;

const snake = (pascal: string) => (pascal.match(WORDS) ?? []).map((w) => w.toLowerCase()).join('_');

/**
 * Actions by event type, computed once per type (event types are a closed set): every audited event,
 * and every event of a rebuild, needs one.
 */
const actions = new Map<string, string>();

/**
 * The stable audit action of a domain event type: `<resource>.<what happened>` in snake case
 * (`SpaceDeleted` is `space.deleted`, `ApiTokenIssued` is `api_token.issued`, `MemberRoleChanged` is
 * `member.role_changed`). Clients filter on these names, so they must never change for a type.
 */
export function auditAction(eventType: string): string {
  let action = actions.get(eventType);
  if (action === undefined) {
    action = actionOf(eventType);
    actions.set(eventType, action);
  }
  return action;
}

function actionOf(eventType: string): string {
  const resource =
    MULTI_WORD_RESOURCES.find((r) => eventType.startsWith(r) && /^[A-Z]/.test(eventType.slice(r.length))) ??
    (eventType.match(WORDS) ?? [eventType])[0];
  const rest = snake(eventType.slice(resource.length));
  return rest ? `${snake(resource)}.${rest}` : snake(resource);
}

/** Words shown in capitals in labels. */
const ACRONYMS: Record<string, string> = { api: 'API', saml: 'SAML', sso: 'SSO', url: 'URL' };

/** A human-readable label for an action: `api_token.issued` is `API token issued`. */
export function actionLabel(action: string): string {
  const words = action.split(/[._]/).filter(Boolean);
  return words.map((w, i) => ACRONYMS[w] ?? (i === 0 ? w.charAt(0).toUpperCase() + w.slice(1) : w)).join(' ');
}
