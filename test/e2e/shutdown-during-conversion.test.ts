import { builtFile, endProcess, type ServerProcess, startServer } from '../support/process-harness';
import { removeDir, tempDir } from '../support/temp-dir';

const TOKEN = 'shutdown-test-token-0123456789abcdef';
/** Generous for a loaded machine: the point is seconds, not the minutes the conversion would take. */
const ENDS_WITHIN_MS = 5_000;

jest.setTimeout(120_000);

/**
 * SIGTERM ends the standalone server promptly while a conversion runs: the conversion is on a thread
 * of its own, which shutting down terminates. The bounds pass is opened up (and the budget made long) so
 * that an emphasis run of 100 KB reaches the parser, which would take it minutes.
 */
describe('SIGTERM during a conversion', () => {
  let server: ServerProcess | undefined;
  const dataDir = tempDir('shutdown-');

  afterAll(async () => {
    if (server) await endProcess(server.process, 'SIGKILL');
    removeDir(dataDir);
  });

  it('ends the process within seconds, the serving thread answering until then', async () => {
    server = await startServer('standalone', builtFile('apps', 'standalone', 'src', 'main.js'), {
      ...process.env,
      DATA_DIR: dataDir,
      BOOTSTRAP_TOKEN: TOKEN,
      LOG_LEVEL: 'error',
      REDIS_URL: '',
      MARKDOWN_MAX_DELIMITER_RUN: '100000000',
      CONVERSION_TIMEOUT_MS: '600000',
    });
    const url = server.url;
    const call = async (method: string, path: string, body?: unknown) => {
      const reply = await fetch(`${url}${path}`, {
        method,
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return (await reply.json()) as Record<string, unknown>;
    };
    const orgs = (await call('GET', '/v1/orgs')) as { items: { id: string }[] };
    const space = (await call('POST', `/v1/orgs/${orgs.items[0].id}/spaces`, { title: 'S' })) as {
      id: string;
    };
    const cr = (await call('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'E' })) as {
      id: string;
    };
    const markdown = `${'*'.repeat(50_000)}x${'*'.repeat(50_000)}`;
    const hostile = call('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
      changes: [{ operation: 'insert_page', title: 'Hostile', document: { markdown } }],
    }).catch(() => undefined);
    // The conversion has started; the serving thread still answers.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const health = Date.now();
    expect((await fetch(`${url}/health`)).status).toBe(200);
    expect(Date.now() - health).toBeLessThan(1500);

    const child = server.process;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const started = Date.now();
    child.kill('SIGTERM');
    const ended = await Promise.race([
      exited.then(() => Date.now() - started),
      new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), ENDS_WITHIN_MS * 4)),
    ]);
    await hostile;
    expect(ended).toBeDefined();
    expect(ended).toBeLessThan(ENDS_WITHIN_MS);
  });
});
