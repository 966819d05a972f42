/*
 * A rebuild of the views on a thread of its own (see rebuildOnThread), over connections of its own to
 * the stores. Loaded from dist/ as a worker script.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Projector } from '@app/platform/projector/projector';
import { PROJECTION_LIST } from './features';
import type { RebuildMessage, RebuildRequest } from './rebuild-thread';
import { openEventStore, openReadStore } from './storage';

if (!parentPort) throw new Error('rebuild-worker runs as a worker thread');
const port = parentPort;
const post = (message: RebuildMessage) => port.postMessage(message);

async function main({ storage, options }: RebuildRequest): Promise<void> {
  const events = await openEventStore(storage);
  const views = await openReadStore(storage);
  try {
    const projector = new Projector(events, views, PROJECTION_LIST);
    const applied = await projector.rebuild(
      (position, head, applied) => post({ type: 'progress', position, head, applied }),
      options,
    );
    post({ type: 'done', applied });
  } finally {
    await events.close();
    await views.close();
  }
}

main(workerData as RebuildRequest).catch((error: unknown) => {
  post({ type: 'failed', message: String((error as Error)?.message ?? error) });
});
