/*
 * The storage thread of a standalone server (see StorageThread): commits the appends the serving thread
 * hands over, and runs the projector, over connections of its own to the log and the views. Loaded
 * from dist/ as a worker script.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { toWireError, type WireOutcome } from '@app/platform/eventstore/event-writer';
import { SqliteEventStore } from '@app/platform/eventstore/sqlite-event-store';
import { Projector } from '@app/platform/projector/projector';
import { CachedReadStore } from '@app/platform/readstore/cached-read-store';
import {
  committedMessage,
  type StorageThreadMessage,
  type StorageThreadRequest,
} from '@app/platform/threads/storage-thread';
import { PROJECTION_LIST } from './features';
import { openEventStore, openReadStore, type StorageConfig } from './storage';

if (!parentPort) throw new Error('storage-worker runs as a worker thread');
const port = parentPort;
const post = (message: StorageThreadMessage) => port.postMessage(message);
/** How soon the serving thread learns that this thread's projector stopped for good. */
const FAILURE_CHECK_MS = 500;

async function main(config: StorageConfig): Promise<void> {
  const events = await openEventStore(config);
  // This thread's projector is the writer of the live views, so a document cache here sees every change.
  const views = new CachedReadStore(await openReadStore(config));
  const projector = new Projector(events, views, PROJECTION_LIST);
  projector.onCommit((committed) => post(committedMessage(committed)));
  // A subscription that stopped for good says so only when asked: the serving thread's readiness asks here.
  let reported: Error | undefined;
  setInterval(() => {
    const failure = projector.failure();
    if (failure && failure !== reported) post({ type: 'failed', message: failure.message });
    reported = failure;
  }, FAILURE_CHECK_MS).unref();

  const log = events instanceof SqliteEventStore ? events : undefined;
  const append = async (request: Extract<StorageThreadRequest, { type: 'append' }>) => {
    if (!log) throw new Error('only the embedded log is committed here');
    // Appended in one event-loop turn, so they share one group commit with any other group that arrived in it.
    const outcomes = await Promise.all(
      request.appends.map((parts) =>
        log.appendSerialized(parts).then(
          (results): WireOutcome => ({ ok: true, results }),
          (error: unknown): WireOutcome => ({ ok: false, error: toWireError(error) }),
        ),
      ),
    );
    post({ type: 'appended', id: request.id, outcomes });
  };

  const handle = async (request: StorageThreadRequest) => {
    switch (request.type) {
      case 'append':
        return append(request);
      case 'start':
        await projector.start();
        return post({ type: 'started', position: projector.checkpoint() });
      case 'stop':
        await projector.stop();
        return post({ type: 'stopped' });
      case 'close':
        await projector.stop();
        await events.close();
        await views.close();
        post({ type: 'closed' });
        port.close();
    }
  };

  port.on('message', (request: StorageThreadRequest) => {
    handle(request).catch((error: unknown) => {
      // Thrown on this thread's event loop, the error ends the thread; the serving thread starts another.
      setImmediate(() => {
        throw error;
      });
    });
  });
}

main((workerData as { storage: StorageConfig }).storage).catch((error: unknown) => {
  setImmediate(() => {
    throw error;
  });
});
