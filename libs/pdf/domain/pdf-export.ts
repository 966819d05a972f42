import { createHash } from 'node:crypto';

/** The job that renders a PDF export ahead of its download. */
export const PDF_EXPORT_JOB = 'content.pdf-export';

/** The job that collects the stored PDFs older than the configured age. */
export const PDF_COLLECT_JOB = 'pdf.collect';

/** A collection runs at most once in this long, whatever the number of workers asking. */
export const PDF_COLLECT_EVERY_MS = 10 * 60 * 1000;

/** One collection per period: the id of the one due at `now`. */
export const pdfCollectJobId = (now: number) => `pdf-collect-${Math.floor(now / PDF_COLLECT_EVERY_MS)}`;

/**
 * What a PDF export prints: a revision (never changing), all of it or one page (with `only`, without the
 * pages under it), under the space's title. The PDF is a pure function of these, so they name it.
 */
export interface PdfExportRequest {
  space: string;
  revision: string;
  page?: string;
  only?: boolean;
  title: string;
}

/**
 * The export's name: the id of the job that renders it and the name of the rendition it is kept as. The
 * same revision, page and title render once, whatever link or replica asks.
 */
export function pdfExportName(request: PdfExportRequest): string {
  const { revision, page, only, title } = request;
  const named = JSON.stringify([revision, page ?? null, page ? only === true : false, title]);
  return `pdf-${createHash('sha256').update(named).digest('base64url').slice(0, 22)}`;
}
