import { GitBookAPI } from '@gitbook/api';
import { matchTemplate, operationAt, responseProblem, schemaProblem } from './openapi';

/**
 * Every 2xx answer a test receives on a /v1 route is checked here, strictly (see openapi.ts), against the
 * response schema GitBook's OpenAPI document gives the operation that method and path name for that
 * status. The test harness's requests go through it: `app.http`, `app.api()` (the GitBook client, by
 * its service binding), `send` in http-checks.ts, and the endpoint tour's client and http function.
 */

export interface ProjectRoute {
  method: string;
  /** The path below /v1, parameters in braces: `/spaces/{spaceId}/transfer`. */
  template: string;
  /** The component schema (components/schemas) a 2xx body is, or why no schema applies. */
  answers: { schema: string } | { unspecified: string };
  /**
   * Why this route's answer is the seeds' shape rather than that of GitBook's operation at the same method
   * and path (the seeds win): the entry is then checked in place of the operation.
   */
  replaces?: string;
}

/**
 * The /v1 routes this project serves that GitBook's document lacks: the component schema each answers
 * (checked as strictly as the document's operations), or why no schema applies. A 2xx answer on a /v1
 * route found neither in the document nor here fails the test.
 */
export const PROJECT_ROUTES: ProjectRoute[] = [
  // The seeds specify it (content-area endpoints: "Transfer space … 200 Space"); @gitbook/api's
  // document has no transfer for spaces, only for collections.
  { method: 'POST', template: '/spaces/{spaceId}/transfer', answers: { schema: 'Space' } },
  // The seeds specify the links listings and file backlinks; @gitbook/api's document dropped these
  // operations after 0.181. Their shapes (ContentReferenceUsage, ContentLocation, ContentReferencesStats)
  // follow that version, which this document no longer has schemas for; links.test.ts checks them.
  ...[
    '/spaces/{spaceId}/links',
    '/spaces/{spaceId}/content/page/{pageId}/links',
    '/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}/links',
    '/spaces/{spaceId}/content/files/{fileId}/backlinks',
    '/spaces/{spaceId}/change-requests/{changeRequestId}/content/files/{fileId}/backlinks',
  ].map(
    (template): ProjectRoute => ({
      method: 'GET',
      template,
      answers: { unspecified: "GitBook's links shapes of @gitbook/api 0.181, checked by links.test.ts" },
    }),
  ),
  // The seeds' translation settings (organization-area endpoints) are not GitBook's `Translation`.
  ...(
    [
      ['GET', '/orgs/{organizationId}/translations', 'TranslationSettingsList'],
      ['POST', '/orgs/{organizationId}/translations', 'TranslationSettings'],
      ['GET', '/orgs/{organizationId}/translations/{translationId}', 'TranslationSettings'],
      ['PUT', '/orgs/{organizationId}/translations/{translationId}', 'TranslationSettings'],
    ] as const
  ).map(
    ([method, template, schema]): ProjectRoute => ({
      method,
      template,
      answers: { schema },
      replaces:
        "the seeds' Translation settings (title, languages), not GitBook's Translation (source, language)",
    }),
  ),
  {
    method: 'GET',
    template: '/downloads/pdf',
    answers: {
      unspecified: 'the PDF a download link of getSpacePDF or getChangeRequestPDF names (application/pdf)',
    },
  },
  {
    method: 'GET',
    template: '/downloads/files/{key}',
    answers: { unspecified: "the bytes of a file uploaded as base64, a RevisionFile's downloadURL" },
  },
  {
    method: 'POST',
    template: '/orgs/{organizationId}/ping',
    answers: { schema: 'PingAnswer' },
    replaces: "the seeds' {serviceVisitorClaims}, which GitBook's document names gitbookVisitorClaims",
  },
  {
    method: 'GET',
    template: '/.well-known/jwks.json',
    answers: {
      unspecified:
        'a JWKS (RFC 7517) of the keys that verify visitor claims; members.test.ts verifies with it',
    },
  },
  {
    method: 'GET',
    template: '/sso/saml/{samlProviderId}/start',
    answers: {
      unspecified: "a 302 to the SAML provider's ssoURL with a SAMLRequest (a provider's service.startURL)",
    },
  },
  {
    method: 'GET',
    template: '/sso/saml/{samlProviderId}/metadata',
    answers: { unspecified: "SAML service provider metadata (XML), at a provider's service.entityID" },
  },
  {
    method: 'POST',
    template: '/sso/saml/{samlProviderId}/acs',
    answers: {
      unspecified:
        "{object: 'sso-session', token, expiresAt, user, organization, relayState}: a provider's service.acsURL, which GitBook's document does not describe; sso-sign-in.test.ts checks it",
    },
  },
  {
    method: 'GET',
    template: '/openapi.json',
    answers: {
      unspecified:
        "this project's own OpenAPI 3.1 document, not a GitBook resource; docs.test.ts checks its shape",
    },
  },
];

const PREFIX = '/v1';

/**
 * What answers `method path` (a path below /v1: `/spaces/{spaceId}` or `/spaces/abc`) are checked
 * against: GitBook's operation, this project's entry in PROJECT_ROUTES, or undefined for neither.
 */
export function routeSchema(
  method: string,
  path: string,
): { operationId: string } | ProjectRoute | undefined {
  const listed = matchTemplate(
    PROJECT_ROUTES.filter((r) => r.method === method.toUpperCase()),
    path,
  );
  const op = operationAt(method, path);
  if (op && !listed?.replaces) return { operationId: op.operationId };
  return listed;
}

/**
 * Why the answer to `method path` (the path as sent, query allowed) is not what the API promises, or
 * undefined; throws when the operation has no response with that status. `body` is the parsed JSON,
 * undefined when the answer had none. Only 2xx answers on /v1 routes are checked: errors have their
 * own checks (http-checks.ts).
 */
export function replyProblem(
  method: string,
  path: string,
  status: number,
  body: unknown,
): string | undefined {
  const pathname = path.split('?')[0];
  if (status < 200 || status > 299 || !(pathname === PREFIX || pathname.startsWith(`${PREFIX}/`))) return;
  const below = pathname.slice(PREFIX.length) || '/';
  const where = `${method.toUpperCase()} ${pathname} (${status})`;
  // A HEAD answer is its GET's without the body: the route must be known, there is nothing to check.
  const head = method.toUpperCase() === 'HEAD';
  if (head && body !== undefined) return `${where}: a body in the answer to HEAD`;
  const route = routeSchema(head ? 'GET' : method, below);
  if (!route) {
    return `${where}: neither GitBook's OpenAPI document nor PROJECT_ROUTES (checked-responses.ts) has this route`;
  }
  if (head) return;
  if ('operationId' in route) {
    const found = responseProblem(route.operationId, status, body);
    return found && `${where}: ${found}`;
  }
  if ('unspecified' in route.answers) return;
  if (body === undefined) return `${where}: a ${route.answers.schema} was expected, got no body`;
  const found = schemaProblem(route.answers.schema, body);
  return found && `${where}: ${found}`;
}

/** Throws when `replyProblem` finds one. */
export function expectValidReply(method: string, path: string, status: number, body: unknown): void {
  const found = replyProblem(method, path, status, body);
  if (found) throw new Error(found);
}

const CHECKING = new WeakSet<typeof fetch>();

/** `base` (fetch by default), with every 2xx answer on a /v1 route checked as above before it is returned. */
export function checkingFetch(base: typeof fetch = fetch): typeof fetch {
  if (CHECKING.has(base)) return base;
  const checked: typeof fetch = async (input, init) => {
    const response = await base(input, init);
    const request = input instanceof Request ? input : undefined;
    const method = init?.method ?? request?.method ?? 'GET';
    const { pathname } = new URL(request ? request.url : input.toString());
    if (!response.ok || !(pathname === PREFIX || pathname.startsWith(`${PREFIX}/`))) return response;
    const text = await response.clone().text();
    let body: unknown;
    if (text) {
      const type = response.headers.get('content-type') ?? '';
      if (!/^application\/json\b/.test(type)) {
        throw new Error(
          `${method} ${pathname} (${response.status}): content-type ${type || 'none'}, not JSON`,
        );
      }
      body = JSON.parse(text);
    }
    expectValidReply(method, pathname, response.status, body);
    return response;
  };
  CHECKING.add(checked);
  return checked;
}

/** `api` itself when its answers are checked already, else a client like it whose answers are. */
export function checkedClient(api: GitBookAPI): GitBookAPI {
  const base = api.serviceBinding?.fetch;
  if (base && CHECKING.has(base)) return api;
  return new GitBookAPI({
    endpoint: api.endpoint,
    authToken: api.authToken,
    userAgent: api.userAgent,
    serviceBinding: { fetch: checkingFetch(base ?? fetch) },
  });
}
