import { Public } from '@app/platform/auth/auth.guard';
import { ConsistencyProbe } from '@app/platform/rpc/rpc.controller';
import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';

/** The gateway is ready when a query service answers. */
@Controller()
export class GatewayHealthController {
  constructor(private readonly probe: ConsistencyProbe) {}

  @Public()
  @Get('health')
  health() {
    return { status: 'ok' };
  }

  @Public()
  @Get('ready')
  async ready() {
    try {
      await this.probe.reached();
      return { status: 'ready', dependencies: { query: 'up' } };
    } catch {
      throw new ServiceUnavailableException('no query service reachable');
    }
  }
}
