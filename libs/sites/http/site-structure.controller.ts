import type { Viewer } from '@app/platform/auth/access';
import { CurrentViewer } from '@app/platform/auth/auth.guard';
import { RequiresRole } from '@app/platform/auth/requires-role';
import { invalid, notFound } from '@app/platform/domain/decider';
import { id } from '@app/platform/http/ids.pipe';
import { ReadYourWrites } from '@app/platform/projector/read-your-writes';
import { Body, Controller, Get, Param, Patch, Query } from '@nestjs/common';
import { SiteStructureQueries } from '../read/site-structure.queries';
import { SiteStructureService } from '../write/site-structure.commands';
import { SiteStructureQueryDto, SortSiteStructureDto } from './site-structure.dto';

const organizationId = () => Param('organizationId', id('organizationId'));
const siteId = () => Param('siteId', id('siteId'));

/** The `type:id` of every site space and section of a structure (GitBook's `SiteStructure`). */
function itemsOf(answer: { type: string; structure: unknown[] }): Set<string> {
  const items = new Set<string>();
  for (const entry of answer.structure as { object?: string; id: string; siteSpaces?: { id: string }[] }[]) {
    if (answer.type === 'sections') {
      items.add(`site-section:${entry.id}`);
      for (const siteSpace of entry.siteSpaces ?? []) items.add(`site-space:${siteSpace.id}`);
    } else items.add(`site-space:${entry.id}`);
  }
  return items;
}

/** GitBook's `SiteStructure` of a site, and `sortSiteStructure`, which places an item among its siblings. */
@Controller('orgs/:organizationId/sites/:siteId/structure')
export class SiteStructureController {
  constructor(
    private readonly service: SiteStructureService,
    private readonly queries: SiteStructureQueries,
    private readonly views: ReadYourWrites,
  ) {}

  @RequiresRole('read')
  @Get()
  get(
    @organizationId() org: string,
    @siteId() site: string,
    @Query() _query: SiteStructureQueryDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.queries.structure(org, site, viewer);
  }

  @RequiresRole('create')
  @Patch('sort')
  async sort(
    @organizationId() org: string,
    @siteId() site: string,
    @Body() body: SortSiteStructureDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    const { item } = body;
    // The item is named in the body: one the site does not have is bad input, as a page a comment names.
    if (!itemsOf(await this.queries.structure(org, site, viewer)).has(`${item.type}:${item.id}`))
      throw invalid(`item.id: the site has no ${item.type} ${item.id}`);
    const pointers = [body.position.before, body.position.after].filter((p) => p !== undefined);
    if (pointers.some((p) => p.type !== item.type))
      throw invalid(`position: an item is placed among items of its own type (${item.type})`);
    const position = {
      ...(body.position.before ? { before: body.position.before.id } : {}),
      ...(body.position.after ? { after: body.position.after.id } : {}),
    };
    if (item.type === 'site-space') {
      const write = this.service.moveSiteSpace(org, site, item.id, position, viewer);
      return this.views.after(write, () => this.queries.siteSpace(org, site, item.id, viewer));
    }
    if (item.type === 'site-section') {
      const write = this.service.moveSection(org, site, item.id, position, viewer);
      return this.views.after(write, () => this.queries.section(org, site, item.id, viewer));
    }
    // Section groups and external links are not served, so a site has none to place.
    throw notFound(`item: the site has no ${item.type} ${item.id}`);
  }
}
