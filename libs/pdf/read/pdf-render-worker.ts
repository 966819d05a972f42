/*
 * A PDF render thread (see PdfThreads): renders the pages it is handed into a PDF, one export at a
 * time, off the thread that serves requests. Loaded from dist/ as a worker script.
 */
import { parentPort } from 'node:worker_threads';
import { servePoolTasks } from '@app/platform/threads/worker-pool';
import { renderPdf } from '../domain/render-pdf';
import type { PdfRenderTask } from './pdf-threads';

if (!parentPort) throw new Error('pdf-render-worker runs as a worker thread');
servePoolTasks<PdfRenderTask, Uint8Array>(parentPort, ({ pages, options }) => renderPdf(pages, options));
