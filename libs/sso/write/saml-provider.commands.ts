import type { Viewer } from '@app/platform/auth/access';
import { invalid } from '@app/platform/domain/decider';
import { newId } from '@app/platform/domain/ids';
import { READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import { arg, Remote } from '@app/platform/rpc/remote-method';
import { apiContext } from '@app/platform/write/command-context';
import { CommandRunner } from '@app/platform/write/command-runner';
import { TEAMS } from '@app/teams/read/team.projection';
import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { samlProviderAggregate } from '../domain/saml-provider.aggregate';
import { type SamlProviderCommand, type SamlProviderInput } from '../domain/saml-provider.decider';

export type { SamlProviderInput };

/**
 * Turns requests into SAML provider commands. The route checked the caller administers the organization;
 * the decider checks the certificate against the clock's time, carried in the command.
 */
@Injectable()
export class SamlProviderService {
  constructor(
    private readonly bus: CommandBus,
    private readonly runner: CommandRunner,
    @Inject(READ_STORE) private readonly views: ReadStore,
  ) {}

  /** A default team must be a team of the organization: members signing in are put in it. */
  private async checkTeam(organization: string, body: SamlProviderInput): Promise<void> {
    if (body.defaultTeam === undefined) return;
    const team = await this.views.get(TEAMS, body.defaultTeam);
    if (!team || team.organization !== organization)
      throw invalid('defaultTeam: no such team in this organization');
  }

  private run(samlProviderId: string, command: SamlProviderCommand, viewer: Viewer, ifMatch?: number) {
    return this.bus.execute(
      samlProviderAggregate.message(samlProviderId, command, { ...apiContext(viewer), ifMatch }),
    );
  }

  @Remote(arg.id('organization'), arg.object<SamlProviderInput>('body'), arg.viewer())
  async create(organization: string, body: SamlProviderInput, viewer: Viewer) {
    await this.checkTeam(organization, body);
    const samlProviderId = newId();
    const command = {
      type: 'CreateSamlProvider' as const,
      samlProviderId,
      organization,
      input: body,
      at: this.runner.now(),
    };
    return { samlProviderId, ...(await this.run(samlProviderId, command, viewer)) };
  }

  @Remote(
    arg.id('organization'),
    arg.id('samlProviderId'),
    arg.object<SamlProviderInput>('body'),
    arg.viewer(),
    arg.optional(arg.int('ifMatch')),
  )
  async update(
    organization: string,
    samlProviderId: string,
    body: SamlProviderInput,
    viewer: Viewer,
    ifMatch?: number,
  ) {
    await this.checkTeam(organization, body);
    const command = { type: 'UpdateSamlProvider' as const, organization, input: body, at: this.runner.now() };
    return this.run(samlProviderId, command, viewer, ifMatch);
  }

  @Remote(arg.id('organization'), arg.id('samlProviderId'), arg.viewer())
  delete(organization: string, samlProviderId: string, viewer: Viewer) {
    const command = { type: 'DeleteSamlProvider' as const, organization, at: this.runner.now() };
    return this.run(samlProviderId, command, viewer);
  }
}
