import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { sendTo, TARGETS } from '../support/api-target';
import {
  acceptedQueries,
  type BodyCategory,
  badPathSegments,
  bodyCases,
  type Expectation,
  encodeQuery,
  malformedJson,
  oversized,
  type QueryCategory,
  queryCases,
  validBodies,
} from '../support/bad-input';
import { dtoModel } from '../support/dto-model';
import { HOSTILE_MARKDOWN } from '../support/hostile-markdown';
import { answerProblem, envelopeProblem, type RawReply } from '../support/http-checks';
import { createWorld, fillPath, missingFixtures, pathIds } from '../support/route-fixtures';
import { type Route, type RouteTable, routeTable, tableProblems } from '../support/route-table';

/** Runs per route and category: enough to vary every field, few enough to keep the file well under a minute. */
const RUNS = 25;
/** Each oversized body is over a mebibyte; a few show the limit holds. */
const OVERSIZED_RUNS = 3;

type Body = Record<string, unknown> | undefined;

// A failing category shrinks its counterexamples over HTTP, route by route; that may take longer than the
// default, and the list of failures is worth more than a timeout.
jest.setTimeout(180_000);

/** fast-check's report (counterexample, seed) followed by what the check said about it. */
function failureText(error: unknown): string {
  const cause = (error as Error).cause;
  const report = (error as Error).message.split('\n\nHint:')[0];
  return cause instanceof Error ? `${report}\n  -> ${cause.message}` : report;
}

/** A request the validation accepts may still be refused (a forged page token), but in the envelope and never 5xx. */
function acceptedProblem(reply: RawReply): string | undefined {
  if (reply.status >= 500) return `answered ${reply.status}: ${reply.text}`;
  return reply.status >= 400 ? envelopeProblem(reply) : undefined;
}

/** Public routes whose input is not refused with a 400, on purpose. */
const UNCHECKED_PUBLIC = new Map([
  [
    'GET /v1/downloads/files/:key',
    'a content address: a malformed key is the key of nothing, a 404 revealing nothing',
  ],
]);

/** Once on the standalone app, once through a gateway with replicas behind it (`TARGETS`). */
const TITLE = 'R3 bad input on every route, generated from its DTO metadata (%s)';

describe.each(TARGETS)(TITLE, (_, useTarget) => {
  const current = useTarget();
  let table: RouteTable;
  let ids: Record<string, string>;
  let maxParamLength: number;
  let bodyLimit: number;
  const covered = new Map<string, Set<string>>();

  beforeAll(async () => {
    const target = current();
    // The routes of the app that answers, so a gateway is checked on the routes it serves itself.
    table = routeTable(target.app);
    const world = await createWorld(target, 'R3');
    ids = pathIds(world, routes());
    const fastify = target.app.getHttpAdapter().getInstance() as FastifyInstance;
    const config = fastify.initialConfig as {
      maxParamLength?: number;
      routerOptions?: { maxParamLength?: number };
    };
    maxParamLength = config.routerOptions?.maxParamLength ?? config.maxParamLength ?? 100;
    bodyLimit = fastify.initialConfig.bodyLimit ?? 1024 * 1024;
  });

  /**
   * The routes checked: every route that needs a token, and the public /v1 routes that take input (the
   * download links, SAML sign-in), whose input is refused the same way.
   */
  const routes = () =>
    table.all.filter(
      (route) =>
        route.path.startsWith('/v1/') &&
        !UNCHECKED_PUBLIC.has(route.key) &&
        (!route.isPublic ||
          route.pathParams.length > 0 ||
          route.query !== undefined ||
          route.body !== undefined),
    );

  /** Routes every part of which can be filled; the others fail the first test, and the coverage test. */
  const checkable = () =>
    routes().filter((route) => route.problems.length === 0 && route.pathParams.every((p) => p.name in ids));

  const baseBody = (route: Route): fc.Arbitrary<Body> =>
    route.body ? validBodies(dtoModel(route.body)) : fc.constant(undefined);

  const hasBody = (route: Route) => route.method !== 'GET' && route.method !== 'HEAD';

  /**
   * Runs one category on every route it applies to: each generated request must be refused as expected, with
   * the envelope, and leave the event log as it was. Failures are collected per route, so one run lists all.
   */
  async function exercise<T>(
    category: string,
    arbitraryFor: (route: Route) => fc.Arbitrary<T> | undefined,
    request: (route: Route, value: T) => Promise<{ reply: RawReply; expected: Expectation | 'no 5xx' }>,
    runs = RUNS,
  ): Promise<string[]> {
    const target = current();
    const failures: string[] = [];
    for (const route of checkable()) {
      const arbitrary = arbitraryFor(route);
      if (!arbitrary) continue;
      const categories = covered.get(route.key) ?? new Set<string>();
      categories.add(category);
      covered.set(route.key, categories);
      try {
        await fc.assert(
          fc.asyncProperty(arbitrary, async (value) => {
            const head = await target.logHead();
            const { reply, expected } = await request(route, value);
            const after = await target.logHead();
            const problem = expected === 'no 5xx' ? acceptedProblem(reply) : answerProblem(reply, expected);
            if (problem) throw new Error(problem);
            if (after !== head)
              throw new Error(`the log moved from ${head} to ${after}: ${reply.status} ${reply.text}`);
          }),
          { numRuns: runs },
        );
      } catch (error) {
        failures.push(`${route.key} [${category}]: ${failureText(error)}`);
      }
    }
    return failures;
  }

  it('the route table matches the router, and every route can be filled and generated for', () => {
    const problems = [
      ...tableProblems(table),
      ...routes().flatMap((route) => route.problems.map((p) => `${route.key} ${p}`)),
      ...missingFixtures(routes()),
      ...routes().flatMap((route) =>
        [route.query, route.body]
          .flatMap((dto) => (dto ? dtoModel(dto).unsupported : []))
          .map(
            (rule) =>
              `${route.key}: no generator for ${rule}; extend test/support/dto-model.ts and bad-input.ts`,
          ),
      ),
    ];
    expect(problems).toEqual([]);
    expect(table.api.length).toBeGreaterThan(0);
  });

  it('invalid path ids: 400 naming the parameter (414 past the router limit, 400 for broken encoding)', async () => {
    const failures = await exercise(
      'path ids',
      (route) =>
        route.pathParams.length === 0
          ? undefined
          : fc.tuple(
              fc.oneof(
                ...route.pathParams.map((p) =>
                  badPathSegments(p.name, maxParamLength, p.pipes).map((c) => ({ ...c, name: p.name })),
                ),
              ),
              baseBody(route),
            ),
      async (route, [bad, body]) => ({
        reply: await sendTo(
          current(),
          route.method,
          fillPath(route, ids, { name: bad.name, segment: bad.segment }),
          {
            raw: body && JSON.stringify(body),
          },
        ),
        expected: bad,
      }),
    );
    expect(failures).toEqual([]);
  });

  const QUERY_CATEGORIES: QueryCategory[] = [
    'integer out of range or not an integer',
    'garbage page token',
    'non-boolean flag',
    'bad string value',
    'repeated key',
    'unknown key',
    'prototype keys',
  ];

  it.each(QUERY_CATEGORIES)('query: %s is a 400 naming the parameter', async (category) => {
    const failures = await exercise(
      `query: ${category}`,
      (route) => {
        const cases = route.query && queryCases(dtoModel(route.query), category);
        return cases && fc.tuple(cases, baseBody(route));
      },
      async (route, [bad, body]) => ({
        reply: await sendTo(current(), route.method, fillPath(route, ids), {
          query: encodeQuery(bad.pairs),
          raw: body && JSON.stringify(body),
        }),
        expected: bad,
      }),
    );
    expect(failures).toEqual([]);
  });

  it('query values the DTO accepts (forged page tokens, bounds, odd dates) never make a 5xx', async () => {
    const failures = await exercise(
      'query: accepted values',
      (route) => (route.query && route.method === 'GET' ? acceptedQueries(dtoModel(route.query)) : undefined),
      async (route, pairs) => ({
        reply: await sendTo(current(), route.method, fillPath(route, ids), { query: encodeQuery(pairs) }),
        expected: 'no 5xx' as const,
      }),
    );
    expect(failures).toEqual([]);
  });

  const BODY_CATEGORIES: BodyCategory[] = [
    'wrong type',
    'over-long string',
    'not in enumeration',
    'pattern mismatch',
    'missing required field',
    'unknown field',
    'null not allowed',
    'prototype keys',
    'control characters',
    'deeply nested JSON',
    'non-object JSON',
  ];

  it.each(BODY_CATEGORIES)('body: %s is a 400 naming the field', async (category) => {
    const failures = await exercise(
      `body: ${category}`,
      (route) => (route.body ? bodyCases(dtoModel(route.body), category) : undefined),
      async (route, bad) => ({
        reply: await sendTo(current(), route.method, fillPath(route, ids), { raw: bad.raw }),
        expected: bad,
      }),
    );
    expect(failures).toEqual([]);
  });

  /** The routes that take Markdown (a page body, a review's comment), with where it goes in the body. */
  const MARKDOWN_ROUTES: [string, string, (markdown: string) => Record<string, unknown>][] = [
    [
      'POST /v1/spaces/:spaceId/change-requests/:changeRequestId/content',
      'changes[0].document.markdown',
      (markdown) => ({ changes: [{ operation: 'insert_page', title: 'Hostile', document: { markdown } }] }),
    ],
    [
      'POST /v1/spaces/:spaceId/change-requests/:changeRequestId/reviews',
      'comment.markdown',
      (markdown) => ({ status: 'approved', comment: { markdown } }),
    ],
  ];

  it.each(MARKDOWN_ROUTES)(
    'body: hostile Markdown on %s is a 400 naming %s within seconds',
    async (key, field, body) => {
      const target = current();
      const route = routes().find((r) => r.key === key);
      if (!route) throw new Error(`no route ${key}`);
      const failures: string[] = [];
      for (const [shape, markdown] of Object.entries(HOSTILE_MARKDOWN)) {
        // A comment holds 64 KiB: the larger shapes are refused for their size, which is as well.
        const head = await target.logHead();
        const started = Date.now();
        const reply = await sendTo(target, route.method, fillPath(route, ids), {
          raw: JSON.stringify(body(markdown)),
        });
        const ms = Date.now() - started;
        const after = await target.logHead();
        const named =
          reply.text.includes(field) || reply.text.includes(`${field.split('.')[0]}: is larger than`);
        if (reply.status !== 400 && reply.status !== 413)
          failures.push(`${shape}: answered ${reply.status} ${reply.text}`);
        else if (reply.status === 400 && !named)
          failures.push(`${shape}: 400 not naming ${field}: ${reply.text}`);
        if (ms > 5_000) failures.push(`${shape}: answered after ${ms} ms`);
        if (after !== head) failures.push(`${shape}: the log moved from ${head} to ${after}`);
      }
      expect(failures).toEqual([]);
    },
  );

  it('body: malformed JSON is a 400 on every route that takes a body', async () => {
    const failures = await exercise(
      'body: malformed JSON',
      (route) => (hasBody(route) ? malformedJson(baseBody(route).map((b) => b ?? {})) : undefined),
      async (route, bad) => ({
        reply: await sendTo(current(), route.method, fillPath(route, ids), { raw: bad.raw }),
        expected: bad,
      }),
    );
    expect(failures).toEqual([]);
  });

  it('body: over the body limit is a 413 on every route that takes a body', async () => {
    const failures = await exercise(
      'body: over the size limit',
      (route) => (hasBody(route) ? oversized(bodyLimit) : undefined),
      async (route, bad) => ({
        reply: await sendTo(current(), route.method, fillPath(route, ids), { raw: bad.raw }),
        expected: bad,
      }),
      OVERSIZED_RUNS,
    );
    expect(failures).toEqual([]);
  });

  it('exercised every route of the table', () => {
    const matrix = routes().map(
      (route) => `${route.key}: ${[...(covered.get(route.key) ?? [])].join(', ') || '-'}`,
    );
    console.log(`R3 coverage (route: categories)\n${matrix.join('\n')}`);
    expect([...covered.keys()].sort()).toEqual(
      routes()
        .map((route) => route.key)
        .sort(),
    );
  });
});
