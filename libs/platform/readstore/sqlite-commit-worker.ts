/*
 * The thread a rebuild commits the SQLite views on (see CommitThread): applies the writes it is handed
 * to one generation, over a connection of its own, in the order they come. Loaded from dist/ as a
 * worker script.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { CommitMessage, CommitReply, CommitRequest } from './commit-thread';
import { SqliteReadStore } from './sqlite-read-store';

if (!parentPort) throw new Error('sqlite-commit-worker runs as a worker thread');
const port = parentPort;
const { path, generation } = workerData as { path: string; generation: number };
// The thread that handed this one its work checkpoints the file.
const store = new SqliteReadStore({ path, checkpointedElsewhere: true });
const target = store.forGeneration(generation);

function run(request: CommitRequest): Promise<void> {
  switch (request.type) {
    case 'commit':
      return target.commitSerialized(request.batch, request.checkpoint);
    case 'ensureIndexes':
      return target.ensureIndexes(request.indexes, request.options);
    case 'clear':
      return target.clear();
    case 'close':
      return store.close();
  }
}

// One request at a time, in the order posted: a commit must land before the next one starts.
let queue = Promise.resolve();
port.on('message', (request: CommitMessage) => {
  queue = queue.then(async () => {
    let reply: CommitReply;
    try {
      await run(request);
      reply = { id: request.id, ok: true };
    } catch (error) {
      reply = { id: request.id, ok: false, message: String((error as Error)?.message ?? error) };
    }
    port.postMessage(reply);
    if (request.type === 'close') port.close();
  });
});
