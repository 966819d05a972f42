import { PdfRenderer } from '@app/pdf/read/pdf-renderer';
import type { Space } from '@gitbook/api';
import { type TestApp, useTestApp } from '../support/app-harness';

// Not in e2e-mongo: it proves where rendering runs, which the views' store does not change

jest.setTimeout(180_000);

const PARAGRAPH =
  'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore. ';
/** About 15 KB of Markdown: twenty sections of a few lines each. */
const PAGE = Array.from({ length: 20 }, (_, i) => `## Section ${i}\n\n${PARAGRAPH.repeat(6)}\n`).join('\n');

/** A space of `count` pages of 15 KB, written in batches that stay under the request body limit. */
async function largeSpace(app: TestApp, count: number): Promise<string> {
  const space = (await app.api().orgs.createSpace(app.organizationId, { title: 'Large' })).data as Space;
  const cr = (await app.api().spaces.createChangeRequest(space.id, { subject: 'Pages' })).data;
  for (let first = 0; first < count; first += 40) {
    const changes = Array.from({ length: Math.min(40, count - first) }, (_, i) => ({
      operation: 'insert_page',
      title: `Page ${first + i}`,
      document: { markdown: PAGE },
    }));
    const written = await app.http('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
      body: { changes },
    });
    expect(written.status).toBe(200);
  }
  await app.api().spaces.mergeChangeRequest(space.id, cr.id);
  return space.id;
}

/** Follows a download link as anyone would: no token. */
async function download(app: TestApp, url: string) {
  const { pathname, search } = new URL(url);
  const response = await fetch(`${app.url}${pathname}${search}`);
  return { status: response.status, body: Buffer.from(await response.arrayBuffer()) };
}

describe('a large PDF export', () => {
  const current = useTestApp();
  let space: string;

  beforeAll(async () => {
    space = await largeSpace(current(), 160);
  });

  it('renders off the serving thread: /health is answered all along the render', async () => {
    const app = current();
    const renderer = app.built.app.get(PdfRenderer);
    const render = renderer.render.bind(renderer);
    const spans: { start: number; end: number }[] = [];
    const spy = jest.spyOn(renderer, 'render').mockImplementation(async (request) => {
      const start = performance.now();
      try {
        return await render(request);
      } finally {
        spans.push({ start, end: performance.now() });
      }
    });
    // The test shares the serving thread: held by a render, it neither sends nor answers /health.
    const answered: number[] = [];
    let done = false;
    const polling = (async () => {
      while (!done) {
        expect((await fetch(`${app.url}/health`)).status).toBe(200);
        answered.push(performance.now());
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    try {
      const { data } = await app.api().spaces.getSpacePdf(space);
      expect((await download(app, data.url)).status).toBe(200);
    } finally {
      done = true;
      await polling;
      spy.mockRestore();
    }
    // Rendered once, by the export's job, which the download waited for.
    expect(spans).toHaveLength(1);
    const [{ start, end }] = spans;
    // The longest stretch of the render without a /health answered: most of it on a held serving
    // thread, a small part of it on a free one.
    const marks = [start, ...answered.filter((at) => at > start && at < end), end];
    const stillest = Math.max(...marks.slice(1).map((at, i) => at - marks[i]));
    expect(marks.length).toBeGreaterThanOrEqual(5);
    expect(stillest).toBeLessThan((end - start) / 4);
  });
});

describe('a PDF export over its budget', () => {
  const current = useTestApp({
    config: { pdf: { threads: 1, timeoutMs: 100, heapMb: 256, keepMs: 7_200_000 } },
  });

  it('answers a 422 naming the budget, in the error envelope', async () => {
    const app = current();
    const space = await largeSpace(app, 40);
    const { data } = await app.api().spaces.getSpacePdf(space);
    const reply = await download(app, data.url);
    expect(reply.status).toBe(422);
    expect(JSON.parse(reply.body.toString())).toEqual({
      error: { code: 422, message: expect.stringMatching(/longer than 100 ms to render/) },
    });
    // The serving thread is still there.
    expect((await fetch(`${app.url}/health`)).status).toBe(200);
  });
});
