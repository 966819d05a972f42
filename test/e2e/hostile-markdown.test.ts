import { DocumentConversions } from '@app/documents/document/conversions';
import { DEFAULT_MARKDOWN_LIMITS, markdownProblem } from '@app/documents/document/markdown-limits';
import type { Space } from '@gitbook/api';
import { largeRealPage } from '../../libs/documents/document/markdown-limits.testing';
import { useTestApp } from '../support/app-harness';
import { HOSTILE_MARKDOWN } from '../support/hostile-markdown';

/**
 * A generous bound for a loaded two-core machine: what matters is seconds rather than the minutes a
 * conversion took before it was bounded (the conversion timeout, 30 s, is far past it).
 */
const REFUSED_WITHIN_MS = 5_000;

jest.setTimeout(120_000);

/** Whether Markdown passes the cheap pass on the serving thread, and so is converted on a thread. */
const reachesConversion = (markdown: string) =>
  markdownProblem(markdown, DEFAULT_MARKDOWN_LIMITS) === undefined;

/**
 * Markdown whose parsing grows faster than its size (emphasis runs, nested links, long lists, deep
 * nesting, footnote chains) is refused with a 400 naming the field within seconds, converted off the
 * serving thread (or refused by the pass before it): `/health` keeps answering meanwhile, and nothing
 * is written. A large real page still converts.
 *
 * That the serving thread stays free is shown without a clock: `/health` answers arrive while a
 * conversion is in flight (between the app's call to `DocumentConversions.markdownToJson` and its
 * settling). A conversion run on the serving thread would begin and end within one turn of the event
 * loop (the app and this test share the process), so no answer could arrive in between.
 */
describe('hostile Markdown', () => {
  const current = useTestApp();
  let space: string;
  let cr: string;
  /** Conversions from Markdown the app has begun and not yet settled. */
  let inFlight = 0;

  beforeAll(async () => {
    const app = current();
    space = ((await app.api().orgs.createSpace(app.organizationId, { title: 'Hostile' })).data as Space).id;
    cr = (await app.api().spaces.createChangeRequest(space, { subject: 'Edit' })).data.id;
    const conversions = app.built.app.get(DocumentConversions, { strict: false });
    const convert = conversions.markdownToJson.bind(conversions);
    jest.spyOn(conversions, 'markdownToJson').mockImplementation(async (markdown) => {
      inFlight++;
      try {
        return await convert(markdown);
      } finally {
        inFlight--;
      }
    });
  });

  afterAll(() => jest.restoreAllMocks());

  /**
   * Asks /health again and again while `request` runs; answers its reply and how many /health answers
   * (each a 200) arrived while a conversion was in flight.
   */
  async function withHealth<T>(request: () => Promise<T>): Promise<{ reply: T; ms: number; health: number }> {
    const app = current();
    let done = false;
    let health = 0;
    const polling = (async () => {
      while (!done) {
        const answer = await fetch(`${app.url}/health`);
        expect(answer.status).toBe(200);
        if (inFlight > 0) health++;
      }
    })();
    const started = Date.now();
    try {
      const reply = await request();
      return { reply, ms: Date.now() - started, health };
    } finally {
      done = true;
      await polling;
    }
  }

  it.each(Object.entries(HOSTILE_MARKDOWN))(
    'a page of %s is a 400 naming changes[0].document.markdown, quickly, /health answering meanwhile',
    async (_, markdown) => {
      const app = current();
      const head = await app.built.storage.events.headPosition();
      const { reply, ms, health } = await withHealth(() =>
        app.http('POST', `/v1/spaces/${space}/change-requests/${cr}/content`, {
          body: { changes: [{ operation: 'insert_page', title: 'Hostile', document: { markdown } }] },
        }),
      );
      expect(reply.status).toBe(400);
      expect(JSON.stringify(reply.body)).toContain('changes[0].document.markdown');
      expect(ms).toBeLessThan(REFUSED_WITHIN_MS);
      // Refused by the pass before it, it was never converted: that pass is cheap, and bounded above.
      if (reachesConversion(markdown)) expect(health).toBeGreaterThan(0);
      expect(await app.built.storage.events.headPosition()).toBe(head);
    },
  );

  it("a review's comment of hostile Markdown is a 400 naming comment.markdown", async () => {
    const app = current();
    const head = await app.built.storage.events.headPosition();
    // Within the 64 KiB of a comment.
    const markdown = `${'*'.repeat(15_000)}x${'*'.repeat(15_000)}`;
    const { reply, ms, health } = await withHealth(() =>
      app.http('POST', `/v1/spaces/${space}/change-requests/${cr}/reviews`, {
        body: { status: 'approved', comment: { markdown } },
      }),
    );
    expect(reply.status).toBe(400);
    expect(JSON.stringify(reply.body)).toContain('comment.markdown');
    expect(ms).toBeLessThan(REFUSED_WITHIN_MS);
    if (reachesConversion(markdown)) expect(health).toBeGreaterThan(0);
    expect(await app.built.storage.events.headPosition()).toBe(head);
  });

  it('requests of hostile Markdown sent together are all refused, /health answering meanwhile', async () => {
    const app = current();
    const head = await app.built.storage.events.headPosition();
    const shapes = Object.values(HOSTILE_MARKDOWN);
    const { reply, health } = await withHealth(() =>
      Promise.all(
        shapes.map((markdown, i) =>
          app.http('POST', `/v1/spaces/${space}/change-requests/${cr}/content`, {
            body: {
              changes: [
                { operation: 'insert_page', title: 'Fine', document: { markdown: '# Fine\n' } },
                { operation: 'insert_page', title: `Hostile ${i}`, document: { markdown } },
              ],
            },
          }),
        ),
      ),
    );
    for (const one of reply) {
      expect(one.status).toBe(400);
      expect(JSON.stringify(one.body)).toContain('changes[1].document.markdown');
    }
    // Some of the shapes pass the cheap pass and are converted: /health answered during those.
    expect(shapes.some(reachesConversion)).toBe(true);
    expect(health).toBeGreaterThan(0);
    expect(await app.built.storage.events.headPosition()).toBe(head);
  });

  it('a large real page (960 KiB, 5,000 headings, lists, links, code, footnotes) passes every conversion bound and is stored', async () => {
    const app = current();
    const markdown = largeRealPage(960 * 1024, 5000);
    const reply = await app.http('POST', `/v1/spaces/${space}/change-requests/${cr}/content?compat=false`, {
      body: { changes: [{ operation: 'insert_page', title: 'Reference', document: { markdown } }] },
    });
    // Converted and stored: its document (about ten times the Markdown as JSON) is stored deflated,
    // without the keys it derives again, in as many appends as it takes.
    expect(reply.status).toBe(200);
    const page = (reply.body as { changes: { page: { id: string } }[] }).changes[0].page.id;
    const read = await app.http(
      'GET',
      `/v1/spaces/${space}/change-requests/${cr}/content/page/${page}?format=markdown`,
    );
    expect(read.status).toBe(200);
    expect(JSON.stringify(read.body)).toContain('Option 4999');
  });

  it('a real page of 300 headings converts, is stored and reads back', async () => {
    const app = current();
    const markdown = largeRealPage(60 * 1024, 300);
    const reply = await app.http('POST', `/v1/spaces/${space}/change-requests/${cr}/content?compat=false`, {
      body: { changes: [{ operation: 'insert_page', title: 'Reference', document: { markdown } }] },
    });
    expect(reply.status).toBe(200);
    const page = (reply.body as { changes: { page: { id: string } }[] }).changes[0].page.id;
    const read = await app.http(
      'GET',
      `/v1/spaces/${space}/change-requests/${cr}/content/page/${page}?format=markdown`,
    );
    expect(read.status).toBe(200);
    expect(JSON.stringify(read.body)).toContain('Option 299');
  });
});
