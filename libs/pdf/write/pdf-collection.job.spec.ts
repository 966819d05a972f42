import { mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileBlobStore } from '@app/platform/blobs/file-blob-store';
import { ManualClock } from '@app/platform/clock/clock';
import { type Config, DEFAULT_PDF } from '@app/platform/config/config';
import type { EnqueueOptions, JobQueue } from '@app/platform/jobs/job-queue.port';
import { PDF_COLLECT_EVERY_MS, PDF_COLLECT_JOB } from '../domain/pdf-export';
import { PdfCollection } from './pdf-collection.job';

const HOUR = 60 * 60 * 1000;

describe('PdfCollection (the collection of stored PDF exports)', () => {
  let dir: string;
  let blobs: FileBlobStore;
  let clock: ManualClock;
  let enqueued: [string, EnqueueOptions][];
  let log: { info: jest.Mock };
  let collection: PdfCollection;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pdf-collection-'));
    blobs = new FileBlobStore(join(dir, 'blobs'));
    // At the start of a collection period, as periods go; it moves only when told.
    clock = new ManualClock(() => PDF_COLLECT_EVERY_MS * 3_000_000);
    enqueued = [];
    log = { info: jest.fn() };
    const queue = {
      enqueue: async (name: string, _data: unknown, options: EnqueueOptions) => {
        enqueued.push([name, options]);
      },
    } as unknown as JobQueue;
    const config = { pdf: { ...DEFAULT_PDF, keepMs: 2 * HOUR } } as Config;
    collection = new PdfCollection(queue, blobs, clock, config);
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** A rendition as it is when put `ago` ms before the clock's now. */
  async function renditionPut(name: string, ago: number): Promise<void> {
    await blobs.putRendition(name, Buffer.from(`%PDF ${name}`), 'application/pdf');
    const at = new Date(clock.now() - ago);
    utimesSync(join(dir, 'blobs', 'renditions', name), at, at);
  }

  it('drops the PDFs kept longer than PDF_KEEP_MS and keeps the younger ones', async () => {
    await renditionPut('pdf-old', 2 * HOUR + 1000);
    await renditionPut('pdf-young', 2 * HOUR - 60_000);
    await collection.collect(log);
    expect(await blobs.rendition('pdf-old')).toBeUndefined();
    expect(await blobs.rendition('pdf-young')).toBeDefined();
    expect(log.info).toHaveBeenCalledWith('collected 1 stored PDF exports');
    clock.advance(61_000);
    await collection.collect(log);
    expect(await blobs.rendition('pdf-young')).toBeUndefined();
  });

  it('is enqueued by every sweep under one id per period, so workers sweeping together collect once', async () => {
    await collection.sweep();
    await collection.sweep();
    clock.advance(PDF_COLLECT_EVERY_MS);
    await collection.sweep();
    expect(enqueued.map(([name]) => name)).toEqual([PDF_COLLECT_JOB, PDF_COLLECT_JOB, PDF_COLLECT_JOB]);
    const ids = enqueued.map(([, options]) => options.jobId);
    expect(ids[0]).toBe(ids[1]);
    expect(ids[2]).not.toBe(ids[0]);
  });
});
