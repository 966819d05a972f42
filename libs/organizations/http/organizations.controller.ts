import type { Viewer } from '@app/platform/auth/access';
import { CurrentViewer } from '@app/platform/auth/auth.guard';
import { OpenToGuests, RequiresRole } from '@app/platform/auth/requires-role';
import { id } from '@app/platform/http/ids.pipe';
import { ListQueryDto } from '@app/platform/http/pagination';
import { ReadYourWrites } from '@app/platform/projector/read-your-writes';
import { Body, Controller, Get, Param, Patch, Query } from '@nestjs/common';
import { OrganizationQueries } from '../read/organizations.queries';
import { OrganizationService } from '../write/organization.commands';
import { EmailDomainPipe } from './email-domain.pipe';
import { UpdateOrganizationDto } from './organizations.dto';

const organizationId = () => Param('organizationId', id('organizationId'));

@Controller('orgs')
export class OrganizationsController {
  constructor(
    private readonly service: OrganizationService,
    private readonly queries: OrganizationQueries,
    private readonly views: ReadYourWrites,
  ) {}

  @RequiresRole('read')
  @Get()
  list(@CurrentViewer() viewer: Viewer, @Query() query: ListQueryDto) {
    return this.queries.listForViewer(viewer, query);
  }

  @RequiresRole('read')
  @OpenToGuests()
  @Get(':organizationId')
  get(@organizationId() org: string, @CurrentViewer() viewer: Viewer) {
    return this.queries.get(org, viewer);
  }

  @RequiresRole('admin')
  @Patch(':organizationId')
  update(
    @organizationId() org: string,
    @Body() body: UpdateOrganizationDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.views.after(this.service.update(org, body, viewer), () => this.queries.get(org, viewer));
  }
}

@Controller('email-domains')
export class EmailDomainsController {
  constructor(private readonly queries: OrganizationQueries) {}

  /** The caller's organizations that list the domain (no other organization is revealed). */
  @RequiresRole('read')
  @Get(':emailDomain/orgs')
  list(
    @Param('emailDomain', new EmailDomainPipe('emailDomain')) domain: string,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.queries.listForEmailDomain(domain, viewer);
  }
}
