import { Inject, Injectable } from '@nestjs/common';
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

  after<T>(write: { position: number }, read: () => Promise<T>): Promise<T> {
    return this.floor.within(write.position, read);
  }

  async wait(write: { position: number }): Promise<void> {
    await this.floor.within(write.position, () => this.probe.reached());
  }
}
