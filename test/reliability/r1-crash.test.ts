import { join } from 'node:path';
import { PROJECTION_LIST } from '@app/composition/catalog';
import type { RecordedEvent } from '@app/platform/eventstore/event-store.port';
import { SqliteEventStore } from '@app/platform/eventstore/sqlite-event-store';
import { Projector } from '@app/platform/projector/projector';
import type { ReadStore } from '@app/platform/readstore/read-store.port';
import { SqliteReadStore } from '@app/platform/readstore/sqlite-read-store';
import { builtFile, endProcess, type ServerProcess, startServer } from '../support/process-harness';
import { removeDir, tempDir } from '../support/temp-dir';

const TOKEN = 'crash-test-bootstrap-token-0123456789';
const WRITERS = 100;
const CRASHES = 5;
/** Writes every crash cycle must have acknowledged before its kill, so that each crash lands under load. */
const ACKED_PER_CYCLE = WRITERS;
const FLOOR_WAIT_MS = 10_000;

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

/**
 * One request of a writer: a space's creation, or a change of its title. Every request writes a title
 * of its own (`w<writer>-c<cycle>-<seq>`), so the event it produced, if any, is found by that title.
 */
interface Write {
  /** Its place among the writer's requests, which it sends one after the other. */
  seq: number;
  kind: 'create' | 'update';
  title: string;
  /** The space written: for a creation, known once it is acknowledged (or found in the log). */
  space: string;
  /** Answered 2xx (with the write in its body): it must be in the log from then on. */
  acked: boolean;
  /** The client error of a request in flight at a kill: it may or may not have landed. */
  failure?: string;
}

/** The title an event of a space's stream sets, if it sets one. */
function titleOf(event: RecordedEvent): string | undefined {
  if (event.type === 'SpaceCreated') return (event.data as { title: string }).title;
  if (event.type === 'SpaceUpdated') return (event.data as { changes: { title?: string } }).changes.title;
  return undefined;
}

/**
 * Checks the log, read from its file while no server runs, against every write sent so far: each
 * acknowledged write is there exactly once, as the event its request makes, in the writer's space; an
 * unacknowledged one (in flight at a kill) at most once; no event carries a title nobody sent; each of
 * the writers' streams holds exactly the writes that landed, in the order they were sent. Returns the
 * problems found and, per space written, the title of the last event of its stream.
 */
function checkLog(
  events: RecordedEvent[],
  writes: Write[][],
  org: string,
): { problems: string[]; lastTitle: Map<string, string> } {
  const problems: string[] = [];
  if (new Set(events.map((e) => e.id)).size !== events.length) problems.push('an event id is stored twice');
  const byTitle = new Map<string, RecordedEvent[]>();
  const streams = new Map<string, RecordedEvent[]>();
  for (const event of events) {
    if (!event.stream.startsWith('space-')) continue;
    const stream = streams.get(event.stream) ?? [];
    if (event.revision !== stream.length)
      problems.push(`${event.stream}: revision ${event.revision} out of order`);
    stream.push(event);
    streams.set(event.stream, stream);
    const title = titleOf(event);
    if (title !== undefined) byTitle.set(title, [...(byTitle.get(title) ?? []), event]);
  }
  const sent = new Set(writes.flat().map((write) => write.title));
  for (const title of byTitle.keys()) {
    if (!sent.has(title)) problems.push(`the log holds "${title}", which no writer sent`);
  }

  const lastTitle = new Map<string, string>();
  for (const [w, ofWriter] of writes.entries()) {
    // The writer's writes that reached the log, in the order it sent them, with their events.
    const landed: { write: Write; event: RecordedEvent }[] = [];
    for (const write of ofWriter) {
      const found = byTitle.get(write.title) ?? [];
      const what = `writer ${w} #${write.seq} (${write.kind} "${write.title}", ${write.acked ? 'acknowledged' : `unacknowledged: ${write.failure}`})`;
      if (found.length > 1) problems.push(`${what}: ${found.length} events carry it`);
      if (found.length === 0) {
        if (write.acked) problems.push(`${what}: acknowledged, but not in the log`);
        continue;
      }
      const event = found[0];
      const space =
        write.kind === 'create'
          ? (event.data as { id: string }).id
          : (event.data as { spaceId: string }).spaceId;
      if (write.kind === 'create' && !write.acked) write.space = space; // applied, never acknowledged
      const expected = write.kind === 'create' ? 'SpaceCreated' : 'SpaceUpdated';
      if (event.type !== expected || event.stream !== `space-${write.space}` || space !== write.space) {
        problems.push(
          `${what}: found as ${event.type} of ${event.stream}, expected ${expected} of space-${write.space}`,
        );
      }
      if (write.kind === 'create' && (event.data as { organization: string }).organization !== org) {
        problems.push(`${what}: created in another organization`);
      }
      landed.push({ write, event });
    }
    // Sent one after the other, so each landed after the one before.
    for (let i = 1; i < landed.length; i++) {
      if (landed[i].event.position <= landed[i - 1].event.position) {
        problems.push(
          `writer ${w}: "${landed[i].write.title}" precedes "${landed[i - 1].write.title}" in the log`,
        );
      }
    }
    // A writer's space is its own: its stream holds exactly the writes of it that landed, in order.
    for (const space of new Set(landed.map(({ write }) => write.space))) {
      const expected = landed.filter(({ write }) => write.space === space).map(({ write }) => write.title);
      const stream = (streams.get(`space-${space}`) ?? []).map((event) => titleOf(event) ?? event.type);
      if (JSON.stringify(stream) !== JSON.stringify(expected)) {
        problems.push(
          `space-${space} of writer ${w} holds ${JSON.stringify(stream)}, expected ${JSON.stringify(expected)}`,
        );
      }
      lastTitle.set(space, expected[expected.length - 1]);
    }
  }
  return { problems, lastTitle };
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
    // From the kill until the restarted server is ready. A request may fail (no answer) only when it
    // fails within this window, that is, when it was in flight at the kill: writers send nothing once
    // it opens. Any answer other than 2xx fails the test whenever it comes: a killed server answers nothing.
    let down = true;
    await server.start();
    down = false;
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
    const orgs = await call('GET', '/v1/orgs');
    expect(orgs.status).toBe(200);
    const org = (orgs.body.items as { id: string }[])[0].id;
    // Per writer: every request it sent, in order, across all cycles.
    const writes: Write[][] = Array.from({ length: WRITERS }, () => []);
    const spaceOf = (w: number) => writes[w].findLast((write) => write.acked)?.space ?? '';

    for (let cycle = 0; cycle < CRASHES; cycle++) {
      let running = true;
      let acked = 0;
      const writer = async (w: number) => {
        while (running) {
          const space = spaceOf(w);
          const write: Write = {
            seq: writes[w].length,
            kind: space ? 'update' : 'create',
            title: `w${w}-c${cycle}-${writes[w].length}`,
            space,
            acked: false,
          };
          writes[w].push(write);
          const what = `writer ${w}: ${write.kind} "${write.title}"`;
          let reply: Awaited<ReturnType<typeof call>>;
          try {
            reply = space
              ? await call('PATCH', `/v1/spaces/${space}`, { title: write.title })
              : await call('POST', `/v1/orgs/${org}/spaces`, { title: write.title });
          } catch (error) {
            const cause = (error as Error & { cause?: unknown }).cause;
            write.failure = `${String(error)}${cause ? ` (${String(cause)})` : ''}`;
            if (!down) throw new Error(`${what} failed while the server was up: ${write.failure}`);
            return; // in flight at the kill
          }
          if (reply.status < 200 || reply.status >= 300) {
            throw new Error(`${what} answered ${reply.status}: ${JSON.stringify(reply.body)}`);
          }
          // The body of a write reflects it.
          if (reply.body.title !== write.title || (space && reply.body.id !== space)) {
            throw new Error(`${what} answered 2xx with ${JSON.stringify(reply.body)}`);
          }
          write.space = reply.body.id as string;
          write.acked = true;
          acked++;
        }
      };
      const writing = Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
      // The kill comes at a random moment, once this cycle has acknowledged its share of writes (a server
      // that cannot within FLOOR_WAIT_MS fails the floor). A writer failing before the kill fails the test at once.
      const killAt = Date.now() + 300 + Math.random() * 700;
      const giveUpAt = killAt + FLOOR_WAIT_MS;
      while (Date.now() < killAt || (acked < ACKED_PER_CYCLE && Date.now() < giveUpAt)) {
        await Promise.race([writing, new Promise((r) => setTimeout(r, 20))]);
      }
      const ackedBeforeKill = acked;
      const inFlight = writes.filter((ofWriter) => ofWriter.length > 0 && !ofWriter.at(-1)?.acked).length;
      down = true;
      running = false;
      await server.kill();
      await writing;
      if (ackedBeforeKill < ACKED_PER_CYCLE || inFlight === 0) {
        throw new Error(
          `cycle ${cycle}: ${ackedBeforeKill} writes acknowledged before the kill (at least ${ACKED_PER_CYCLE} needed), ${inFlight} in flight at it`,
        );
      }

      // The log as the crash left it, before a server opens it again.
      const store = new SqliteEventStore({ path: join(dataDir, 'events.sqlite') });
      const log = await store.readAll(0, Number.MAX_SAFE_INTEGER);
      await store.close();
      const { problems, lastTitle } = checkLog(log, writes, org);
      expect({ cycle, problems }).toEqual({ cycle, problems: [] });

      await server.start();
      down = false;
      // The views answer, for every space written (orphans of creations that landed unacknowledged
      // included), the title of the last event of its stream: the writer's last acknowledged title,
      // unless a write of its in flight at a kill after that one landed.
      const recovered: string[] = [];
      for (const [w, ofWriter] of writes.entries()) {
        const last = ofWriter.findLast((write) => write.acked);
        if (!last) continue;
        const newest = lastTitle.get(last.space);
        const later = ofWriter.filter((write) => write.seq > last.seq && write.space === last.space);
        if (newest !== last.title && !later.some((write) => write.failure && write.title === newest)) {
          recovered.push(
            `writer ${w}: space ${last.space} ends with "${newest}", not its last acknowledged "${last.title}"`,
          );
        }
      }
      const answers = await Promise.all(
        [...lastTitle].map(async ([space, title]) => ({
          space,
          title,
          reply: await call('GET', `/v1/spaces/${space}`),
        })),
      );
      for (const { space, title, reply } of answers) {
        if (reply.status !== 200 || reply.body.title !== title) {
          recovered.push(
            `GET /v1/spaces/${space} answered ${reply.status} ${JSON.stringify(reply.body.title)}, expected "${title}"`,
          );
        }
      }
      expect({ cycle, recovered }).toEqual({ cycle, recovered: [] });
    }

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

describe('R1 crash durability of uploaded files', () => {
  const UPLOADERS = 8;
  let dataDir: string;
  let server: Server;

  beforeAll(() => {
    dataDir = tempDir('crash-files-');
    server = new Server(builtFile('apps', 'standalone', 'src', 'main.js'), dataDir);
  });
  afterAll(async () => {
    await server?.kill();
    if (dataDir) removeDir(dataDir);
  });

  it('serves the bytes of every acknowledged upload after a SIGKILL, and of every file the content names', async () => {
    await server.start();
    const call = async (method: string, path: string, body?: unknown, token: string | null = TOKEN) => {
      const response = await fetch(`${server.url}${path}`, {
        method,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const org = ((await call('GET', '/v1/orgs')).body.items as { id: string }[])[0].id;
    const space = (await call('POST', `/v1/orgs/${org}/spaces`, { title: 'Uploads' })).body.id as string;
    // One change request per uploader: their edits do not wait for each other's.
    const crs = await Promise.all(
      Array.from(
        { length: UPLOADERS },
        async () => (await call('POST', `/v1/spaces/${space}/change-requests`, {})).body.id as string,
      ),
    );
    const acked: { url: string; bytes: Buffer }[] = [];
    let running = true;
    const uploader = async (u: number) => {
      for (let n = 0; running; n++) {
        const bytes = Buffer.from(`${u}:${n}:`.repeat(4000 + ((u * 997 + n * 131) % 4000)));
        let reply: Awaited<ReturnType<typeof call>>;
        try {
          reply = await call('POST', `/v1/spaces/${space}/change-requests/${crs[u]}/content?compat=false`, {
            changes: [
              {
                operation: 'insert_files',
                files: [
                  { name: `f${u}-${n}.txt`, contentType: 'text/plain', base64: bytes.toString('base64') },
                ],
              },
            ],
          });
        } catch {
          if (running) throw new Error(`uploader ${u} failed while the server was up`);
          return; // in flight at the kill
        }
        if (reply.status !== 200) throw new Error(`uploader ${u} answered ${reply.status}`);
        const [file] = reply.body.insertedFiles as { downloadURL: string }[];
        acked.push({ url: file.downloadURL, bytes });
      }
    };
    const uploading = Promise.all(Array.from({ length: UPLOADERS }, (_, u) => uploader(u)));
    const killAt = Date.now() + 500 + Math.random() * 500;
    while (Date.now() < killAt || (acked.length < 2 * UPLOADERS && Date.now() < killAt + FLOOR_WAIT_MS)) {
      await Promise.race([uploading, new Promise((r) => setTimeout(r, 20))]);
    }
    running = false;
    await server.kill();
    await uploading;
    expect(acked.length).toBeGreaterThanOrEqual(2 * UPLOADERS);

    await server.start();
    const download = async (url: string) => {
      const response = await fetch(`${server.url}${new URL(url).pathname}`);
      return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) };
    };
    const lost: string[] = [];
    for (const { url, bytes } of acked) {
      const got = await download(url);
      if (got.status !== 200 || Buffer.compare(got.bytes, bytes) !== 0) lost.push(`${url}: ${got.status}`);
    }
    // Uploads in flight at the kill that landed name their blob too: a change never names a missing one.
    for (const cr of crs) {
      const files = await call('GET', `/v1/spaces/${space}/change-requests/${cr}/content/files?limit=1000`);
      for (const file of files.body.items as { downloadURL: string }[]) {
        const got = await download(file.downloadURL);
        if (got.status !== 200) lost.push(`${file.downloadURL} (named by the content): ${got.status}`);
      }
    }
    expect(lost).toEqual([]);
  }, 120_000);
});
