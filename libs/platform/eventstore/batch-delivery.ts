import type { BatchHandler, RecordedEvent } from './event-store.port';

/** Pause before handing a failed batch to the handler again. */
export const HANDLER_RETRY_DELAY_MS = 500;

/** A pause that ends when its time is up or as soon as `wake()` is called, whichever comes first. */
export class Waiter {
  private release?: () => void;

  /** Without `ms`, waits until woken. */
  wait(ms?: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = ms === undefined ? undefined : setTimeout(() => this.wake(), ms);
      this.release = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  wake(): void {
    const release = this.release;
    this.release = undefined;
    release?.();
  }
}

/**
 * Hands `batch` to `handler` until it succeeds. A failure is logged and the same batch is retried:
 * skipping it would silently lose events for the consumer. Returns false when stopped first.
 */
export async function deliverUntilAccepted(
  batch: RecordedEvent[],
  handler: BatchHandler,
  isStopped: () => boolean,
  pause: Waiter,
): Promise<boolean> {
  while (!isStopped()) {
    try {
      await handler(batch);
      return true;
    } catch (error) {
      logHandlerFailure(batch, error);
      await pause.wait(HANDLER_RETRY_DELAY_MS);
    }
  }
  return false;
}

function logHandlerFailure(batch: RecordedEvent[], error: unknown): void {
  const first = batch[0]?.position;
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(
    `event store subscription: handler failed on batch starting at position ${first}, retrying in ${HANDLER_RETRY_DELAY_MS}ms: ${detail}\n`,
  );
}
