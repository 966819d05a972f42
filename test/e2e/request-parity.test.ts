import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RequestMethod } from '@nestjs/common';
import { HTTP_CODE_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { useTestApp } from '../support/app-harness';
import { operationAt } from '../support/openapi';
import { bodyTrials, deref, queryTrials, refusal, type Trial } from '../support/request-parity';
import { API_PREFIX, type Route, routeTable, templateOf } from '../support/route-table';

// Not in e2e-mongo: it reads the routes' validation rules, not the views.

/**
 * Request parity with GitBook's OpenAPI document (`@gitbook/api`'s spec/openapi.json): for every operation
 * this server shares with it (same method and path), every request-body field and query parameter
 * GitBook's schema lets a client send — names, enum values, null alternatives, union alternatives — is
 * accepted by the route's validation, or listed in docs/request-deviations.md with its reason. An unlisted
 * refusal fails, and so does a listed one the server no longer refuses. Refusals by the service after
 * validation (`Refused by: service`) are listed there too and tested in their features' suites.
 *
 * Each operation's success statuses are checked against GitBook's here; what each answers (a JSON body
 * of GitBook's schema, or none where GitBook's response has no content) is checked on every 2xx answer
 * the suites receive (checked-responses.ts), the endpoint tour's call of every route included.
 */

// biome-ignore lint/suspicious/noExplicitAny: GitBook's document is walked as plain JSON
type Json = Record<string, any>;

interface Deviation {
  operation: string;
  in: 'body' | 'query';
  field: string;
  /** Undefined: every value GitBook allows. */
  values?: unknown[];
  by: 'validation' | 'service';
  reason: string;
}

const DEVIATIONS_FILE = join(__dirname, '../../docs/request-deviations.md');

/** The rows of the deviations table: `| operation | in | field | values | refused by | reason |`. */
function listedDeviations(): Deviation[] {
  const rows = readFileSync(DEVIATIONS_FILE, 'utf8')
    .split('\n')
    .filter((line) => /^\|\s*`?[a-z]/.test(line) && !/^\|\s*Operation\b/i.test(line));
  return rows.map((line) => {
    const cells = line
      .split(/(?<!\\)\|/)
      .slice(1, -1)
      .map((cell) => cell.trim().replace(/^`(.*)`$/, '$1'));
    const [operation, where, field, values, by, reason] = cells;
    if (
      cells.length !== 6 ||
      !reason ||
      !['body', 'query'].includes(where) ||
      !['validation', 'service'].includes(by)
    )
      throw new Error(`${DEVIATIONS_FILE}: malformed row ${line}`);
    return {
      operation,
      in: where as Deviation['in'],
      field,
      values: values === 'all' ? undefined : (JSON.parse(`[${values.replace(/`/g, '')}]`) as unknown[]),
      by: by as Deviation['by'],
      reason,
    };
  });
}

interface Shared {
  route: Route;
  operationId: string;
  operation: Json;
}

const key = (operation: string, where: string, field: string) => `${operation} ${where} ${field}`;
const sameValue = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

describe('request parity with GitBook', () => {
  const current = useTestApp();
  let shared: Shared[];

  beforeAll(() => {
    const table = routeTable(current().built.app);
    const paths = (require('@gitbook/api/spec/openapi.json') as Json).paths as Json;
    shared = table.all.flatMap((route) => {
      const found = operationAt(route.method, templateOf(route).slice(API_PREFIX.length));
      if (!found) return [];
      const operation = paths[found.template][found.method] as Json;
      return [{ route, operationId: found.operationId, operation }];
    });
  });

  it('shares operations with GitBook', () => {
    expect(shared.length).toBeGreaterThan(100);
  });

  it('accepts every request field and value GitBook allows, but the listed deviations', async () => {
    const refused = new Map<string, { trial: Trial; why: string; operation: string }[]>();
    const tried = new Set<string>();
    for (const { route, operationId, operation } of shared) {
      const schema = operation.requestBody?.content?.['application/json']?.schema as Json | undefined;
      const trials = [
        ...(schema ? bodyTrials(schema) : []),
        ...queryTrials([...((operation.parameters as Json[]) ?? [])].map((p) => deref(p) as Json)),
      ];
      for (const trial of trials) {
        tried.add(key(operationId, trial.in, trial.field));
        const why = await refusal(trial, trial.in === 'body' ? route.body : route.query);
        if (!why) continue;
        const at = key(operationId, trial.in, trial.field);
        refused.set(at, [...(refused.get(at) ?? []), { trial, why, operation: operationId }]);
      }
    }

    // Fields of most operations are tried (a count that only grows as operations are added).
    expect(tried.size).toBeGreaterThan(300);
    const listed = listedDeviations();
    const byKey = new Map(listed.map((d) => [key(d.operation, d.in, d.field), d]));
    expect(listed.length).toBe(byKey.size);
    /** The listed entry for the field, or for a field it is in when that one refuses every value. */
    const entryFor = (operation: string, where: string, field: string) => {
      const own = byKey.get(key(operation, where, field));
      if (own) return own;
      const outer = [...field.matchAll(/[.[]/g)].map((m) => field.slice(0, m.index));
      return outer
        .map((f) => byKey.get(key(operation, where, f)))
        .find((entry) => entry && entry.values === undefined);
    };

    const unlisted: string[] = [];
    for (const found of refused.values()) {
      for (const { trial, why, operation } of found) {
        const entry = entryFor(operation, trial.in, trial.field);
        if (entry && (entry.values === undefined || entry.values.some((v) => sameValue(v, trial.value))))
          continue;
        unlisted.push(`${key(operation, trial.in, trial.field)} = ${JSON.stringify(trial.value)}: ${why}`);
      }
    }
    expect([...new Set(unlisted)]).toEqual([]);

    // A deviation the validation no longer makes is taken off the list.
    const stale = listed
      .filter((d) => d.by === 'validation')
      .filter((d) => {
        const found = refused.get(key(d.operation, d.in, d.field)) ?? [];
        if (d.values === undefined) return found.length === 0;
        return d.values.some((v) => !found.some(({ trial }) => sameValue(trial.value, v)));
      })
      .map((d) => key(d.operation, d.in, d.field));
    expect(stale).toEqual([]);

    // Every listed operation is one this server shares with GitBook.
    const ids = new Set(shared.map((s) => s.operationId));
    expect(listed.map((d) => d.operation).filter((op) => !ids.has(op))).toEqual([]);
  });

  it("answers with the success statuses GitBook's operations have, each JSON or empty as theirs", () => {
    const problems: string[] = [];
    for (const { route, operationId, operation } of shared) {
      const controller = route.controllerType;
      const handler = controller.prototype[route.handler] as object;
      const declared: number | undefined = Reflect.getMetadata(HTTP_CODE_METADATA, handler);
      const theirs = Object.keys(operation.responses as Json).filter((s) => s.startsWith('2'));
      const args = Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, route.handler) ?? {};
      const sendsReply = Object.keys(args).some(
        (slot) => Number(slot.split(':')[0]) === RouteParamtypes.RESPONSE,
      );
      const fallback = route.method === RequestMethod[RequestMethod.POST] ? 201 : 200;
      // A handler that sends its reply itself (205 or 204 on deletes) sets its statuses in its code: each
      // answer is checked against GitBook's statuses where the suites receive it.
      if (!(sendsReply && declared === undefined)) {
        const status = String(declared ?? fallback);
        if (!theirs.includes(status))
          problems.push(`${operationId}: answers ${status}, GitBook's operation has ${theirs.join(', ')}`);
      }
      for (const code of theirs) {
        const response = deref(operation.responses[code]) as Json;
        const types = Object.keys(response.content ?? {});
        if (types.some((type) => type !== 'application/json'))
          problems.push(`${operationId} ${code}: GitBook answers ${types.join(', ')}, this server JSON`);
      }
    }
    expect(problems).toEqual([]);
  });
});
