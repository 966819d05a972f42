import { join } from 'node:path';
import { PROJECTION_LIST } from '@app/composition/catalog';
import { SqliteEventStore } from '@app/platform/eventstore/sqlite-event-store';
import { Projector } from '@app/platform/projector/projector';
import type { ReadStore } from '@app/platform/readstore/read-store.port';
import { SqliteReadStore } from '@app/platform/readstore/sqlite-read-store';
import { builtFile, endProcess, type ServerProcess, startServer } from '../support/process-harness';
import { removeDir, tempDir } from '../support/temp-dir';

const TOKEN = 'crash-test-bootstrap-token-0123456789';
const WRITERS = 100;
const CRASHES = 5;

async function dump(views: ReadStore): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const name of (await views.collections()).sort()) out[name] = await views.all(name);
  return out;
}

/** The standalone server (`npm start`) as its own process, so that SIGKILL is a real crash. */
class Server {
  private running?: ServerProcess;
  url = '';
  constructor(
    private readonly script: string,
    private readonly dataDir: string,
  ) {}

  async start(): Promise<void> {
    const env = {
      ...process.env,
      DATA_DIR: this.dataDir,
      BOOTSTRAP_TOKEN: TOKEN,
      LOG_LEVEL: 'error',
      REDIS_URL: '',
    };
    this.running = await startServer('standalone', this.script, env, {
      // Ready once the views have caught up with the log it recovered.
      ready: async (url) => {
        const ready = (await (await fetch(`${url}/ready`)).json()) as {
          log?: { head: number; projected: number };
        };
        return ready.log !== undefined && ready.log.projected >= ready.log.head;
      },
    });
    this.url = this.running.url;
  }

  kill(): Promise<void> {
    return this.running ? endProcess(this.running.process, 'SIGKILL') : Promise.resolve();
  }
}

describe('R1 crash durability', () => {
  let dataDir: string;
  let server: Server;

  beforeAll(() => {
    dataDir = tempDir('crash-');
    server = new Server(builtFile('apps', 'standalone', 'src', 'main.js'), dataDir);
  });
  afterAll(async () => {
    await server?.kill();
    if (dataDir) removeDir(dataDir);
  });

  it(`keeps every acknowledged write through ${CRASHES} SIGKILLs under ${WRITERS} concurrent writers`, async () => {
    await server.start();
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${server.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${TOKEN}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const org = ((await call('GET', '/v1/orgs')).body.items as { id: string }[])[0].id;
    // Per writer: its space, the last title acknowledged, and those sent since, which a crash may or
    // may not have let through.
    const state = Array.from({ length: WRITERS }, () => ({
      space: '',
      acked: '',
      unacked: new Set<string>(),
    }));
    let acknowledged = 0;

    for (let crash = 0; crash < CRASHES; crash++) {
      let running = true;
      const writer = async (w: number) => {
        for (let i = 0; running; i++) {
          const s = state[w];
          const title = `w${w}-c${crash}-${i}`;
          s.unacked.add(title);
          try {
            const reply = s.space
              ? await call('PATCH', `/v1/spaces/${s.space}`, { title })
              : await call('POST', `/v1/orgs/${org}/spaces`, { title });
            if (reply.status >= 500) throw new Error(`5xx: ${JSON.stringify(reply.body)}`);
            if (reply.status < 300) {
              s.space = reply.body.id as string;
              s.acked = title;
              s.unacked.clear();
              acknowledged++;
            }
          } catch (error) {
            if ((error as Error).message.startsWith('5xx')) throw error;
            return; // the server is gone
          }
        }
      };
      const writers = Array.from({ length: WRITERS }, (_, w) => writer(w));
      await new Promise((r) => setTimeout(r, 300 + Math.random() * 700));
      await server.kill();
      running = false;
      await Promise.all(writers);

      await server.start();
      for (const s of state.filter((x) => x.acked)) {
        const reply = await call('GET', `/v1/spaces/${s.space}`);
        expect(reply.status).toBe(200);
        // The write in flight at the crash may or may not have landed; nothing acknowledged may be lost.
        expect([s.acked, ...s.unacked]).toContain(reply.body.title);
      }
    }
    expect(acknowledged).toBeGreaterThan(WRITERS);

    const events = new SqliteEventStore({ path: join(dataDir, 'events.sqlite') });
    const all = await events.readAll(0, 10_000_000);
    expect(new Set(all.map((e) => e.id)).size).toBe(all.length);
    const live = new SqliteReadStore({ path: join(dataDir, 'views.sqlite') });
    const freshDir = tempDir('crash-fresh-');
    const fresh = new SqliteReadStore({ path: join(freshDir, 'views.sqlite') });
    const projector = new Projector(events, fresh, PROJECTION_LIST);
    await projector.prepare();
    await projector.apply(all);
    expect(await dump(live)).toEqual(await dump(fresh));
    await Promise.all([events.close(), live.close(), fresh.close()]);
    removeDir(freshDir);
  }, 180_000);
});
