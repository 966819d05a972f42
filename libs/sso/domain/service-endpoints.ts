/** Where this server answers as the service provider of a SAML provider. */
export interface ServiceEndpoints {
  /** Where the identity provider posts its responses (assertion consumer service). */
  acsURL: string;
  /** Where a member's browser starts signing in: it is sent on to the identity provider. */
  startURL: string;
  /** This service's entity id, which is also where its metadata is served. */
  entityID: string;
}

/** The endpoints of provider `id`, under the API's base (`api` makes a path absolute). */
export function serviceEndpoints(api: (path: string) => string, id: string): ServiceEndpoints {
  const base = api(`/sso/saml/${id}`);
  return { acsURL: `${base}/acs`, startURL: `${base}/start`, entityID: `${base}/metadata` };
}
