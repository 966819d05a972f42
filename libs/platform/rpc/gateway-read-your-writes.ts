import { Inject, Injectable, Logger } from '@nestjs/common';
import { toHttpError } from '../http/errors';
import type { Written } from '../projector/read-your-writes';
import { CONSISTENCY_FLOOR, type ConsistencyFloor } from './remote';
import { ConsistencyProbe } from './rpc.controller';

/**
 * The gateway's read-your-writes: the read that answers a write runs with the write's position as its
 * floor, so whichever query replica serves it first waits until its views include the write.
 */
@Injectable()
export class GatewayReadYourWrites {
  private readonly logger = new Logger('read-your-writes');

  constructor(
    @Inject(CONSISTENCY_FLOOR) private readonly floor: ConsistencyFloor,
    private readonly probe: ConsistencyProbe,
  ) {}

  async after<W extends Written, T>(write: W | Promise<W>, read: (written: W) => Promise<T>): Promise<T> {
    const written = await write;
    return this.floor.within(written.position, () => read(written));
  }

  /** As `ReadYourWrites.wait`: a replica whose views stay behind past its bound (503) does not fail the write. */
  async wait<W extends Written>(write: W | Promise<W>): Promise<W> {
    const written = await write;
    try {
      await this.floor.within(written.position, () => this.probe.reached());
    } catch (error) {
      if (toHttpError(error).status !== 503) throw error;
      this.logger.warn(`answered a write at ${written.position} before the views included it`);
    }
    return written;
  }
}
