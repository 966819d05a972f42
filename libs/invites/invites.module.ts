import { CollectionPresenter } from '@app/collections/read/collection.presenter';
import type { ServiceRole } from '@app/platform/rpc/feature-module';
import { featureModule } from '@app/platform/rpc/feature-module';
import { SpacePresenter } from '@app/spaces/read/space.presenter';
import { type DynamicModule, Module } from '@nestjs/common';
import { InvitesController } from './http/invites.controller';
import { InvitePresenter } from './read/invite.presenter';
import { InviteQueries } from './read/invites.queries';
import { AdmitInvitedAccounts, AdmitInvitedUsers } from './write/admit-invited.job';
import { InviteService } from './write/invite.commands';

@Module({})
export class InvitesModule {
  static forRole(role: ServiceRole): DynamicModule {
    return featureModule(InvitesModule, role, {
      controllers: [InvitesController],
      commands: [InviteService],
      queries: [InviteQueries, InvitePresenter, SpacePresenter, CollectionPresenter],
      jobs: [AdmitInvitedUsers, AdmitInvitedAccounts],
    });
  }
}
