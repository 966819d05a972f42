import { EventEmitter } from 'node:events';

export class ProjectionTimeoutError extends Error {}

/**
 * Waits for the views to reach a log position, for whoever tracks how far they are (the projector, or
 * its stand-in on the serving thread): `wait` resolves once `reached()` is at the position after a
 * `notify`, or rejects after the timeout.
 */
export class PositionWaits {
  private readonly progress = new EventEmitter();

  constructor(private readonly reached: () => number) {
    this.progress.setMaxListeners(0);
  }

  wait(position: number, timeoutMs: number): Promise<void> {
    if (this.reached() >= position) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const onProgress = () => {
        if (this.reached() < position) return;
        clearTimeout(timer);
        this.progress.off('advance', onProgress);
        resolve();
      };
      const timer = setTimeout(() => {
        this.progress.off('advance', onProgress);
        reject(new ProjectionTimeoutError(`views did not reach position ${position} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.progress.on('advance', onProgress);
    });
  }

  /** The position reached may have moved: resolves the waits it satisfies. */
  notify(): void {
    this.progress.emit('advance');
  }
}
