/** What a test fixture can use: the HTTP API as an administrator, and the ids resolved before it. */
export interface FixtureContext {
  /** Sends a request as the administrator of the test world; throws unless the status is 2xx. */
  call(method: string, path: string, body?: unknown): Promise<unknown>;
  /** Ids of the path parameters resolved so far (features earlier in the list resolve first). */
  ids: Readonly<Record<string, string>>;
  /** The organizations the harness made (organizations have no create route): the test world's, and a second one. */
  world: { organizationId: string; otherOrganizationId: string };
  /** A label for what it creates, naming the suite. */
  label: string;
}

/** Makes (or finds) a resource whose id fills one path parameter in the route suites. */
export type PathFixture = (ctx: FixtureContext) => Promise<string>;
