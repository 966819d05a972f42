/*
 * A conversion thread (see PooledConversions): converts page bodies between Markdown and documents,
 * one at a time, off the thread that serves requests. Loaded from dist/ as a worker script.
 */
import { parentPort } from 'node:worker_threads';
import {
  type ConversionResult,
  type ConversionTask,
  runConversion,
} from '@app/documents/document/conversions';
import { servePoolTasks } from '@app/platform/threads/worker-pool';

if (!parentPort) throw new Error('conversion-worker runs as a worker thread');
servePoolTasks<ConversionTask, ConversionResult>(parentPort, runConversion);
