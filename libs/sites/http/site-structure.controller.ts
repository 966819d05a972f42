import type { Viewer } from '@app/platform/auth/access';
import { CurrentViewer } from '@app/platform/auth/auth.guard';
import { RequiresRole } from '@app/platform/auth/requires-role';
import { invalid, notFound } from '@app/platform/domain/decider';
import { ReadYourWrites } from '@app/platform/projector/read-your-writes';
import { Body, Controller, Get, Patch, Query } from '@nestjs/common';
import { SiteStructureQueries } from '../read/site-structure.queries';
import { SiteStructureService } from '../write/site-structure.commands';
import { organizationId, siteId } from './site-params';
import { positionOf, SiteStructureQueryDto, SortSiteStructureDto } from './site-structure.dto';

interface Presented {
  object: string;
  id: string;
  siteSpaces?: Presented[];
  sections?: Presented[];
}

/** The `type:id` of every item of a structure (GitBook's `SiteStructure`): site spaces, sections, groups. */
function itemsOf(answer: { structure: unknown[] }): Set<string> {
  const items = new Set<string>();
  const visit = (entry: Presented) => {
    items.add(`${entry.object}:${entry.id}`);
    for (const inner of [...(entry.siteSpaces ?? []), ...(entry.sections ?? [])]) visit(inner);
  };
  for (const entry of answer.structure as Presented[]) visit(entry);
  return items;
}

/** Site spaces are placed among site spaces; sections and groups among sections and groups. */
const levelKind = (type: string) => (type === 'site-space' ? 'site spaces' : 'sections and section groups');

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
    @Query() query: SiteStructureQueryDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.queries.structure(org, site, { shareKey: query.shareKey }, viewer);
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
    const items = itemsOf(await this.queries.structure(org, site, {}, viewer));
    if (!items.has(`${item.type}:${item.id}`))
      throw invalid(`item.id: the site has no ${item.type} ${item.id}`);
    for (const side of ['before', 'after'] as const) {
      const pointer = body.position[side];
      if (pointer === undefined) continue;
      if (levelKind(pointer.type) !== levelKind(item.type))
        throw invalid(`position.${side}: ${levelKind(item.type)} are placed among ${levelKind(item.type)}`);
      if (!items.has(`${pointer.type}:${pointer.id}`))
        throw invalid(`position.${side}.id: the site has no ${pointer.type} ${pointer.id}`);
    }
    const position = positionOf(body.position, (p) => p.id);
    if (item.type === 'site-space') {
      const write = this.service.moveSiteSpace(org, site, item.id, position, viewer);
      return this.views.after(write, () => this.queries.siteSpace(org, site, item.id, viewer));
    }
    if (item.type === 'site-section') {
      const write = this.service.moveSection(org, site, item.id, position, viewer);
      return this.views.after(write, () => this.queries.section(org, site, item.id, viewer));
    }
    if (item.type === 'site-section-group') {
      const write = this.service.moveGroup(org, site, item.id, position, viewer);
      return this.views.after(write, () => this.queries.group(org, site, item.id, viewer));
    }
    // External links are not served, so a site has none to place.
    throw notFound(`item: the site has no ${item.type} ${item.id}`);
  }
}
