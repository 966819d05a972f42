import { Inject, Injectable } from '@nestjs/common';
import { LIVE_PROJECTOR, type LiveProjector } from './projector';

/**
 * Makes a write's response, and any read after it, include the write: waits (bounded) until the views
 * have applied the log up to the write's position.
 */
@Injectable()
export class ReadYourWrites {
  constructor(@Inject(LIVE_PROJECTOR) private readonly projector: LiveProjector) {}

  async after<T>(write: { position: number }, read: () => Promise<T>): Promise<T> {
    await this.projector.waitFor(write.position);
    return read();
  }

  wait(write: { position: number }): Promise<void> {
    return this.projector.waitFor(write.position);
  }
}
