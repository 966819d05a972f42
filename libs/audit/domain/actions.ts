/** Words of a PascalCase name; a run of capitals is one word (`SSOEnabled` is `SSO`, `Enabled`). */
const WORDS = /[A-Z]+(?![a-z])|[A-Z][a-z0-9]*/g;

const snake = (pascal: string) => (pascal.match(WORDS) ?? []).map((w) => w.toLowerCase()).join('_');

/** What a resource is named in actions: snake case (`change_request`). */
const RESOURCE = /^[a-z][a-z0-9]*(_[a-z][a-z0-9]*)*$/;

/** How event types name a resource: `change_request` is `ChangeRequest`. */
export const pascalOf = (resource: string) =>
  resource
    .split('_')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');

/**
 * The stable audit action of a domain event type of `resource` (as its feature declares it):
 * `<resource>.<what happened>` in snake case (`space` and `SpaceDeleted` is `space.deleted`, `api_token`
 * and `ApiTokenIssued` is `api_token.issued`, `member` and `MemberRoleChanged` is `member.role_changed`).
 * Clients filter on these names, so they must never change for a type. A type that does not start with
 * its resource's name, then a word, has none.
 */
export function auditAction(resource: string, eventType: string): string {
  const prefix = pascalOf(resource);
  const rest = eventType.slice(prefix.length);
  if (!RESOURCE.test(resource) || !eventType.startsWith(prefix) || !/^[A-Z]/.test(rest)) {
    throw new Error(`audit: ${eventType} is not an event of a resource named ${resource}`);
  }
  return `${resource}.${snake(rest)}`;
}

/** Words shown in capitals in labels. */
const ACRONYMS: Record<string, string> = { api: 'API', saml: 'SAML', sso: 'SSO', url: 'URL' };

/** A human-readable label for an action: `api_token.issued` is `API token issued`. */
export function actionLabel(action: string): string {
  const words = action.split(/[._]/).filter(Boolean);
  return words.map((w, i) => ACRONYMS[w] ?? (i === 0 ? w.charAt(0).toUpperCase() + w.slice(1) : w)).join(' ');
}
