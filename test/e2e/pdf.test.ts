import { createHash } from 'node:crypto';
import { Runtime } from '@app/composition/runtime';
import { pdfExportName } from '@app/pdf/domain/pdf-export';
import { readPdf } from '@app/pdf/domain/read-pdf.testing';
import { PdfRenderer } from '@app/pdf/read/pdf-renderer';
import { JOB_QUEUE, type JobQueue } from '@app/platform/jobs/job-queue.port';
import type { Space } from '@gitbook/api';
import { useTestApp } from '../support/app-harness';

describe('PDF exports', () => {
  const current = useTestApp();
  let space: Space;
  let pages: string[];

  beforeAll(async () => {
    const app = current();
    space = (await app.api().orgs.createSpace(app.organizationId, { title: 'Handbook' })).data as Space;
    const cr = (await app.api().spaces.createChangeRequest(space.id, { subject: 'Pages' })).data;
    const written = await app.http(
      'POST',
      `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`,
      {
        body: {
          changes: [
            { operation: 'insert_page', title: 'Welcome', document: { markdown: 'Hello and welcome.\n' } },
            {
              operation: 'insert_page',
              title: 'Setup',
              ref: 'setup',
              document: { markdown: 'Install it first.\n' },
            },
            {
              operation: 'insert_page',
              title: 'Advanced',
              into: undefined,
              document: { markdown: 'Tune everything.\n' },
            },
          ],
        },
      },
    );
    pages = (written.body as { changes: { page: { id: string } }[] }).changes.map((c) => c.page.id);
    await app.api().spaces.mergeChangeRequest(space.id, cr.id);
  });

  /** Follows a download link as anyone would: no token. */
  const download = async (url: string) => {
    const { pathname, search } = new URL(url);
    const response = await fetch(`${current().url}${pathname}${search}`);
    return {
      status: response.status,
      type: response.headers.get('content-type'),
      bytes: new Uint8Array(await response.arrayBuffer()),
    };
  };

  it('answers a signed link to the whole space, which a PDF reader reads back with the page titles in order', async () => {
    const { data } = await current().api().spaces.getSpacePdf(space.id);
    expect(data.url).toMatch(/\/v1\/downloads\/pdf\?token=[\w-]+\.[\w-]{43}$/);
    const pdf = await download(data.url);
    expect(pdf).toMatchObject({ status: 200, type: 'application/pdf' });
    const text = readPdf(pdf.bytes)
      .pages.map((p) => p.text)
      .join('\n');
    expect(text.indexOf('Welcome')).toBeLessThan(text.indexOf('Setup'));
    expect(text.indexOf('Setup')).toBeLessThan(text.indexOf('Advanced'));
    expect(text).toContain('Install it first.');
  });

  it('prints one page only, and a change request', async () => {
    const only = await current().api().spaces.getSpacePdf(space.id, { page: pages[1], only: true });
    const text = readPdf((await download(only.data.url)).bytes)
      .pages.map((p) => p.text)
      .join('\n');
    expect(text).toContain('Setup');
    expect(text).not.toContain('Welcome');
    const cr = (await current().api().spaces.createChangeRequest(space.id, { subject: 'Print' })).data;
    const link = await current().api().spaces.getChangeRequestPdf(space.id, cr.id);
    expect((await download(link.data.url)).status).toBe(200);
  });

  it('renders an export once, in its job, and serves the stored PDF at every download', async () => {
    const app = current();
    const render = jest.spyOn(app.built.app.get(PdfRenderer), 'render');
    const head = await app.built.storage.events.headPosition();
    try {
      const { data } = await app.api().spaces.getSpacePdf(space.id, { page: pages[2], only: true });
      const first = await download(data.url);
      const second = await download(data.url);
      expect(first).toMatchObject({ status: 200, type: 'application/pdf' });
      expect(Buffer.compare(first.bytes, second.bytes)).toBe(0);
      // Another link to the same export is the same PDF, not another render.
      const again = await app.api().spaces.getSpacePdf(space.id, { page: pages[2], only: true });
      expect(Buffer.compare((await download(again.data.url)).bytes, first.bytes)).toBe(0);
      expect(render).toHaveBeenCalledTimes(1);
      // Kept under the name of the export it is, as no blob; and reading wrote nothing to the log.
      const { revision } = (await app.api().spaces.getSpaceById(space.id)).data;
      const request = { space: space.id, revision, page: pages[2], only: true, title: 'Handbook' };
      const kept = await app.built.storage.blobs.rendition(pdfExportName(request));
      expect(Buffer.compare(kept?.bytes ?? Buffer.alloc(0), first.bytes)).toBe(0);
      expect(await app.built.storage.blobs.has(createHash('sha256').update(first.bytes).digest('hex'))).toBe(
        false,
      );
      expect(await app.built.storage.events.headPosition()).toBe(head);
    } finally {
      render.mockRestore();
    }
  });

  it('renders the PDF at the download when no job will: the queue refused it', async () => {
    const app = current();
    const jobs = app.built.app.get<symbol, JobQueue>(JOB_QUEUE);
    const enqueue = jest.spyOn(jobs, 'enqueue').mockRejectedValue(new Error('the queue is away'));
    try {
      const { data } = await app.api().spaces.getSpacePdf(space.id, { page: pages[0], only: true });
      const pdf = await download(data.url);
      expect(pdf).toMatchObject({ status: 200, type: 'application/pdf' });
      expect(
        readPdf(pdf.bytes)
          .pages.map((p) => p.text)
          .join('\n'),
      ).toContain('Hello and welcome.');
      // Asked once by the link, once more by the download, which then rendered it itself.
      expect(enqueue).toHaveBeenCalledTimes(2);
    } finally {
      enqueue.mockRestore();
    }
  });

  it('serves a PDF through its signed link only: its SHA-256 downloads no file', async () => {
    const app = current();
    const { data } = await app.api().spaces.getSpacePdf(space.id, { page: pages[1] });
    const pdf = await download(data.url);
    expect(pdf).toMatchObject({ status: 200, type: 'application/pdf' });
    const key = createHash('sha256').update(pdf.bytes).digest('hex');
    const leaked = await fetch(`${app.url}/v1/downloads/files/${key}`);
    expect(leaked.status).toBe(404);
    expect(await leaked.json()).toEqual({ error: { code: 404, message: 'File not found' } });
    expect((await download(data.url)).status).toBe(200);
  });

  it('answers a new link at every request, never one kept from before (links expire)', async () => {
    const app = current();
    const first = await app.http('GET', `/v1/spaces/${space.id}/pdf`);
    app.clock.advance(1000);
    const second = await app.http('GET', `/v1/spaces/${space.id}/pdf`);
    expect((second.body as { url: string }).url).not.toBe((first.body as { url: string }).url);
    expect(second.headers.get('cache-control')).toBe('no-store');
  });

  // Moves the clock on by hours: runs after the tests that rely on a PDF staying stored.
  it('collects stored PDFs older than links live; a download after that renders the PDF again', async () => {
    const app = current();
    const render = jest.spyOn(app.built.app.get(PdfRenderer), 'render');
    try {
      const first = await app.api().spaces.getSpacePdf(space.id, { page: pages[1], only: true });
      expect((await download(first.data.url)).status).toBe(200);
      const rendered = render.mock.calls.length;
      app.clock.advance(3 * 60 * 60 * 1000);
      await app.built.app.get(Runtime).sweep();
      await app.built.storage.jobs.drain();
      const again = await app.api().spaces.getSpacePdf(space.id, { page: pages[1], only: true });
      const pdf = await download(again.data.url);
      expect(pdf).toMatchObject({ status: 200, type: 'application/pdf' });
      expect(
        readPdf(pdf.bytes)
          .pages.map((p) => p.text)
          .join('\n'),
      ).toContain('Install it first.');
      expect(render).toHaveBeenCalledTimes(rendered + 1);
    } finally {
      render.mockRestore();
    }
  });

  it('refuses a tampered or expired link, and asks no token but the link', async () => {
    const app = current();
    const { data } = await app.api().spaces.getSpacePdf(space.id);
    const tampered = data.url.replace(/\.(.)/g, (_m, c: string) => `.${c === 'A' ? 'B' : 'A'}`);
    expect((await download(tampered)).status).toBe(404);
    app.clock.advance(2 * 60 * 60 * 1000);
    expect((await download(data.url)).status).toBe(404);
    expect((await app.http('GET', `/v1/spaces/${space.id}/pdf`, { token: null })).status).toBe(401);
  });
});
