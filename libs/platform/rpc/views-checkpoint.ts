import { ProjectionTimeoutError } from '../projector/position-waits';
import { CHECKPOINT } from '../projector/projector';
import type { ReadStore } from '../readstore/read-store.port';

/**
 * How a process that does not run the projector knows how far the views are: it polls the
 * projector's checkpoint in the shared read store.
 */
export class ViewsCheckpoint {
  private known = 0;

  constructor(
    private readonly views: ReadStore,
    private readonly pollMs = 10,
  ) {}

  async current(): Promise<number> {
    this.known = Math.max(this.known, await this.views.getCheckpoint(CHECKPOINT));
    return this.known;
  }

  async waitFor(position: number, timeoutMs: number): Promise<void> {
    if (position <= this.known) return;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if ((await this.current()) >= position) return;
      if (Date.now() >= deadline) {
        throw new ProjectionTimeoutError(`views did not reach position ${position} within ${timeoutMs} ms`);
      }
      await new Promise((resolve) => setTimeout(resolve, this.pollMs));
    }
  }
}
