import { Inject, Injectable } from '@nestjs/common';
import { LIVE_PROJECTOR, type LiveProjector } from './projector';

/** What a write answers: at least where it landed in the log. */
export type Written = { position: number };

/**
 * Makes a write's response, and any read after it, include the write: waits (bounded) until the views
 * have applied the log up to the write's position. A write endpoint is one line:
 * `return this.views.after(this.service.update(...), () => this.queries.get(...))`.
 */
@Injectable()
export class ReadYourWrites {
  constructor(@Inject(LIVE_PROJECTOR) private readonly projector: LiveProjector) {}

  /** Awaits the write, then answers from the read model once the views include it. */
  async after<W extends Written, T>(write: W | Promise<W>, read: (written: W) => Promise<T>): Promise<T> {
    const written = await write;
    await this.projector.waitFor(written.position);
    return read(written);
  }

  /** Awaits the write and the views including it, for a write that answers no body. */
  async wait<W extends Written>(write: W | Promise<W>): Promise<W> {
    const written = await write;
    await this.projector.waitFor(written.position);
    return written;
  }
}
