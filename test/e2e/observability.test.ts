import { randomUUID } from 'node:crypto';
import { PURGE_JOB } from '@app/spaces/write/space-purge.job';
import { BOOTSTRAP_TOKEN, eventually, liveProjector, useTestApp } from '../support/app-harness';
import { checkingFetch } from '../support/checked-responses';

// Not in e2e-mongo: the serving process's correlation ids, logs, metrics and readiness, whatever store holds
// the views.

/** fetch, with 2xx answers on /v1 routes checked against their response schemas (checked-responses.ts). */
const checkedFetch = checkingFetch();

// The app's log lines, at info level, kept in memory so that the tests can read them.
const rawLogLines: string[] = [];

const DAY_MS = 24 * 60 * 60 * 1000;

interface LogLine {
  level: string;
  msg: string;
  correlationId?: string;
  [field: string]: unknown;
}

const logLines = (): LogLine[] => rawLogLines.map((line) => JSON.parse(line) as LogLine);

/** Value of one sample of the exposition, e.g. `events_appended_total` or `x{a="b"}`; undefined when absent. */
function sample(exposition: string, series: string): number | undefined {
  const line = exposition.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('observability', () => {
  const current = useTestApp({
    config: { logLevel: 'info' },
    logDestination: { write: (line: string) => rawLogLines.push(line) },
  });

  const send = (method: string, path: string, headers: Record<string, string> = {}, body?: unknown) =>
    checkedFetch(`${current().url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${current().token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  const scrape = async () => {
    const response = await fetch(`${current().url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return response.text();
  };

  const createSpace = async (requestId: string, title = 'Observed') => {
    const response = await send(
      'POST',
      `/v1/orgs/${current().organizationId}/spaces`,
      { 'x-request-id': requestId },
      { title },
    );
    expect(response.status).toBe(201);
    return { response, space: (await response.json()) as { id: string } };
  };

  describe('correlation', () => {
    it('echoes X-Request-Id and carries it into the event metadata and the request log line', async () => {
      const app = current();
      const { response, space } = await createSpace('abc-123');
      expect(response.headers.get('x-request-id')).toBe('abc-123');

      const [created] = await app.built.storage.events.readStream(`space-${space.id}`);
      expect(created.metadata.correlationId).toBe('abc-123');

      const line = logLines().find((l) => l.msg === 'request completed' && l.correlationId === 'abc-123');
      expect(line).toMatchObject({
        level: 'info',
        method: 'POST',
        route: '/v1/orgs/:organizationId/spaces',
        status: 201,
        durationMs: expect.any(Number),
      });
    });

    it('generates an id when none (or a malformed one) is given, and echoes it on 401 and 404 too', async () => {
      const app = current();
      const generated = await send('GET', '/v1/orgs');
      expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);

      const malformed = await send('GET', '/v1/orgs', { 'x-request-id': 'has spaces in it' });
      expect(malformed.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);

      const unauthorized = await fetch(`${app.url}/v1/orgs`, { headers: { 'x-request-id': 'no-token-1' } });
      expect(unauthorized.status).toBe(401);
      expect(unauthorized.headers.get('x-request-id')).toBe('no-token-1');

      const missing = await send('GET', '/v1/no-such-route', { 'x-request-id': 'nowhere-1' });
      expect(missing.status).toBe(404);
      expect(missing.headers.get('x-request-id')).toBe('nowhere-1');
      const line = logLines().find((l) => l.correlationId === 'nowhere-1');
      expect(line).toMatchObject({ route: 'unmatched', status: 404 });
    });

    it('gives lines logged while serving a request its id, also after the body was read', async () => {
      const app = current();
      const spy = jest
        .spyOn(app.built.storage.events, 'append')
        .mockRejectedValueOnce(new Error('disk on fire'));
      try {
        const response = await send(
          'POST',
          `/v1/orgs/${app.organizationId}/spaces`,
          { 'x-request-id': 'broken-7' },
          { title: 'Never' },
        );
        expect(response.status).toBe(500);
        expect(response.headers.get('x-request-id')).toBe('broken-7');
      } finally {
        spy.mockRestore();
      }
      const error = logLines().find((l) => l.level === 'error' && l.correlationId === 'broken-7');
      expect(error?.msg).toContain('disk on fire');
    });

    it('runs the purge job under the deletion request id', async () => {
      const app = current();
      const { space } = await createSpace('doomed-1', 'Doomed');
      expect((await send('DELETE', `/v1/spaces/${space.id}`, { 'x-request-id': 'delete-42' })).status).toBe(
        205,
      );
      app.clock.advance(8 * DAY_MS);
      await eventually(
        async () => (await app.built.storage.events.readStream(`space-${space.id}`)).length === 3,
      );
      await app.built.storage.jobs.drain();

      const purged = (await app.built.storage.events.readStream(`space-${space.id}`))[2];
      expect(purged).toMatchObject({ type: 'SpacePurged', metadata: { correlationId: 'delete-42' } });
      const jobLines = logLines().filter((l) => l.correlationId === 'delete-42' && l.job === PURGE_JOB);
      expect(jobLines).toContainEqual(expect.objectContaining({ msg: 'job completed', attempt: 1 }));
      // Lines the job's own code writes carry the id too.
      expect(logLines()).toContainEqual(
        expect.objectContaining({ msg: `purged space ${space.id}`, correlationId: 'delete-42' }),
      );
    });

    it('never logs the token', () => {
      expect(rawLogLines.length).toBeGreaterThan(0);
      expect(rawLogLines.join('')).not.toContain(BOOTSTRAP_TOKEN);
    });
  });

  describe('GET /metrics', () => {
    it('is public and counts appended events', async () => {
      const before = sample(await scrape(), 'events_appended_total') ?? 0;
      await createSpace('count-1');
      const after = sample(await scrape(), 'events_appended_total') ?? 0;
      expect(after).toBe(before + 1);
    });

    it('has request durations by route pattern, never by raw URL', async () => {
      const { space } = await createSpace('histogram-1');
      expect((await send('GET', `/v1/spaces/${space.id}`)).status).toBe(200);
      const text = await scrape();
      const series =
        'http_request_duration_seconds_count{method="GET",route="/v1/spaces/:spaceId",status="200"}';
      expect(sample(text, series)).toBeGreaterThanOrEqual(1);
      expect(text).not.toContain(space.id);
    });

    it('shows no projection lag once a write has answered (read-your-writes)', async () => {
      await createSpace('lag-1');
      const text = await scrape();
      expect(sample(text, 'projection_lag_events')).toBe(0);
      expect(sample(text, 'projection_lag_seconds')).toBe(0);
    });

    it('reports projection lag while views are behind', async () => {
      const app = current();
      const projector = liveProjector(app);
      await projector.stop();
      try {
        await app.built.storage.events.append(
          `lag-probe-${randomUUID()}`,
          [
            {
              id: randomUUID(),
              type: 'LagProbe',
              data: {},
              metadata: {
                schemaVersion: 1,
                occurredAt: new Date(app.clock.now()).toISOString(),
                actor: { source: 'script' },
                correlationId: 'lag-probe',
                causationId: null,
              },
            },
          ],
          'no_stream',
        );
        app.clock.advance(30_000);
        const text = await scrape();
        expect(sample(text, 'projection_lag_events')).toBe(1);
        // The manual clock also follows real time, so a few ms more.
        expect(sample(text, 'projection_lag_seconds')).toBeGreaterThanOrEqual(30);
        expect(sample(text, 'projection_lag_seconds')).toBeLessThan(31);
      } finally {
        await projector.start();
      }
      await eventually(async () => sample(await scrape(), 'projection_lag_events') === 0);
    });

    it('has job queue depth by queue and state, the failed-jobs counter and process metrics', async () => {
      const text = await scrape();
      for (const state of ['waiting', 'active', 'delayed', 'failed']) {
        expect(sample(text, `job_queue_depth{queue="${PURGE_JOB}",state="${state}"}`)).toBeGreaterThanOrEqual(
          0,
        );
      }
      expect(text).toContain('# TYPE jobs_failed_total counter');
      expect(text).toContain('# TYPE http_request_duration_seconds histogram');
      expect(sample(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    });
  });

  describe('GET /ready', () => {
    it('reports each dependency', async () => {
      const app = current();
      const response = await fetch(`${app.url}/ready`);
      expect(response.status).toBe(200);
      const head = await app.built.storage.events.headPosition();
      expect(await response.json()).toMatchObject({
        status: 'ready',
        checks: {
          eventStore: { status: 'up', headPosition: head },
          readStore: { status: 'up', checkpoint: expect.any(Number) },
          jobQueue: { status: 'up' },
        },
      });
    });

    it('answers 503 naming the dependency that is down', async () => {
      const app = current();
      const spy = jest
        .spyOn(app.built.storage.views, 'getCheckpoint')
        .mockRejectedValue(new Error('connection refused'));
      try {
        const response = await fetch(`${app.url}/ready`);
        expect(response.status).toBe(503);
        expect(response.headers.get('x-request-id')).toBeTruthy();
        expect(await response.json()).toMatchObject({
          status: 'unavailable',
          checks: {
            eventStore: { status: 'up' },
            readStore: { status: 'down', reason: 'error' },
            jobQueue: { status: 'up' },
          },
        });
      } finally {
        spy.mockRestore();
      }
    });

    it('keeps /health trivial', async () => {
      const app = current();
      const response = await fetch(`${app.url}/health`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: 'ok' });
    });
  });
});
