import { Inject, Injectable } from '@nestjs/common';
import type { Written } from '../projector/read-your-writes';
import { CONSISTENCY_FLOOR, type ConsistencyFloor } from './remote';
import { ConsistencyProbe } from './rpc.controller';

/**
 * The gateway's read-your-writes: the read that answers a write runs with the write's position as its
 * floor, so whichever query replica serves it first waits until its views include the write.
 */
@Injectable()
export class GatewayReadYourWrites {
  constructor(
    @Inject(CONSISTENCY_FLOOR) private readonly floor: ConsistencyFloor,
    private readonly probe: ConsistencyProbe,
  ) {}

  async after<W extends Written, T>(write: W | Promise<W>, read: (written: W) => Promise<T>): Promise<T> {
    const written = await write;
    return this.floor.within(written.position, () => read(written));
  }

  async wait<W extends Written>(write: W | Promise<W>): Promise<W> {
    const written = await write;
    await this.floor.within(written.position, () => this.probe.reached());
    return written;
  }
}
