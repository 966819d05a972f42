import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { blobKey } from '@app/platform/blobs/blob-store.port';
import { FileBlobStore } from '@app/platform/blobs/file-blob-store';
import { DomainError } from '@app/platform/domain/decider';
import type { Job, JobHandler, JobQueue } from '@app/platform/jobs/job-queue.port';
import { PDF_EXPORT_JOB, pdfExportName } from '../domain/pdf-export';
import type { PdfRenderer } from '../read/pdf-renderer';
import { type PdfExportJobData, PdfExports } from './pdf-export.job';

const data: PdfExportJobData = {
  space: 's1',
  revision: 'r1',
  page: 'p1',
  only: true,
  title: 'Handbook',
  correlationId: 'req-1',
};
const name = pdfExportName(data);
const pdf = Buffer.from('%PDF-1.7 rendered');
const job = (attempt = 1): Job<PdfExportJobData> => ({ id: name, name: PDF_EXPORT_JOB, data, attempt });

describe('PdfExports (the PDF export job)', () => {
  let dir: string;
  let blobs: FileBlobStore;
  let renderer: { render: jest.Mock };
  let log: { info: jest.Mock };
  let exports: PdfExports;
  let registered: JobHandler<PdfExportJobData> | undefined;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pdf-export-job-'));
    blobs = new FileBlobStore(join(dir, 'blobs'));
    renderer = { render: jest.fn(async () => new Uint8Array(pdf)) };
    log = { info: jest.fn() };
    const queue = {
      register: (jobName: string, handler: JobHandler<PdfExportJobData>) => {
        expect(jobName).toBe(PDF_EXPORT_JOB);
        registered = handler;
      },
    } as unknown as JobQueue;
    exports = new PdfExports(queue, blobs, renderer as unknown as PdfRenderer);
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("renders what the job names and keeps the PDF under the export's name, as no blob", async () => {
    exports.register();
    await registered?.(job(), log);
    expect(renderer.render).toHaveBeenCalledWith({
      space: 's1',
      revision: 'r1',
      page: 'p1',
      only: true,
      title: 'Handbook',
    });
    expect(await blobs.rendition(name)).toEqual({ bytes: pdf, contentType: 'application/pdf' });
    expect(await blobs.has(blobKey(pdf))).toBe(false);
    expect(log.info).toHaveBeenCalledWith(`rendered ${pdf.length} bytes of space s1`);
  });

  it('renders an export once: a job run again (a retry, a second worker) finds it kept', async () => {
    await exports.render(job(), log);
    await exports.render(job(2), log);
    expect(renderer.render).toHaveBeenCalledTimes(1);
  });

  it('fails, keeping nothing, when the export cannot be rendered (the queue retries it)', async () => {
    renderer.render.mockRejectedValueOnce(new Error('This link is not valid, or has expired'));
    await expect(exports.render(job(), log)).rejects.toThrow('not valid');
    expect(await blobs.rendition(name)).toBeUndefined();
  });

  it('ends, keeping nothing, an export over its budget: another attempt would be over it too', async () => {
    renderer.render.mockRejectedValueOnce(
      new DomainError('unprocessable', 'This export takes longer than 100 ms to render'),
    );
    await exports.render(job(), log);
    expect(await blobs.rendition(name)).toBeUndefined();
    expect(log.info).toHaveBeenCalledWith('not rendered: This export takes longer than 100 ms to render');
  });
});
