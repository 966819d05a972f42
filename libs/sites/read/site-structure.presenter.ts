import type { Role } from '@app/platform/domain/roles';
import { SpacePresenter } from '@app/spaces/read/space.presenter';
import type { SpaceDoc } from '@app/spaces/read/space.projection';
import { Injectable } from '@nestjs/common';
import { defaultOf, type SectionEntry, type SiteSpaceEntry, type Structure } from '../domain/site-structure';
import { SitePresenter } from './site.presenter';
import type { SiteDoc } from './site.projection';

/** What a site's structure is presented with: the site, and the live spaces its site spaces publish. */
export interface StructureContext {
  site: SiteDoc;
  structure: Structure;
  spaces: ReadonlyMap<string, SpaceDoc>;
  role: Role;
}

/**
 * GitBook's `SiteSpace`, `SiteSection` and `SiteStructure`. A site space whose space is gone (deleted or
 * transferred, before its site has detached it) is left out: no reader sees a dangling site space.
 */
@Injectable()
export class SiteStructurePresenter {
  constructor(
    private readonly sites: SitePresenter,
    private readonly spaces: SpacePresenter,
  ) {}

  /** The live site spaces of a section (or the root's): those whose space the views hold. */
  private live(context: StructureContext, siteSpaces: readonly SiteSpaceEntry[]) {
    return siteSpaces.filter((s) => context.spaces.has(s.spaceId));
  }

  /** Where the site is published, when it is. */
  private published(context: StructureContext): string | undefined {
    return this.sites.present(context.site, context.role).urls.published;
  }

  private defaultSection(context: StructureContext) {
    return defaultOf(context.structure.sections, context.site.defaultSiteSection);
  }

  siteSpace(context: StructureContext, entry: SiteSpaceEntry, section?: SectionEntry) {
    const siblings = this.live(context, section ? section.siteSpaces : context.structure.siteSpaces);
    const chosen = section ? section.defaultSiteSpace : context.site.defaultSiteSpace;
    const isDefault = defaultOf(siblings, chosen)?.id === entry.id;
    const base = section ? this.sectionUrl(context, section) : this.published(context);
    const space = context.spaces.get(entry.spaceId) as SpaceDoc;
    return {
      object: 'site-space' as const,
      id: entry.id,
      path: entry.path,
      ...(section ? { section: section.id } : {}),
      space: this.spaces.present(space, context.role),
      title: space.title,
      default: isDefault,
      ...(entry.condition !== undefined ? { condition: entry.condition } : {}),
      draft: false,
      urls: base === undefined ? {} : { published: isDefault ? base : `${base}/${entry.path}` },
    };
  }

  private sectionUrl(context: StructureContext, section: SectionEntry): string | undefined {
    const base = this.published(context);
    if (base === undefined) return undefined;
    return this.defaultSection(context)?.id === section.id ? base : `${base}/${section.path}`;
  }

  section(context: StructureContext, section: SectionEntry) {
    const url = this.sectionUrl(context, section);
    return {
      object: 'site-section' as const,
      id: section.id,
      title: section.title,
      ...(section.description !== undefined ? { description: section.description } : {}),
      default: this.defaultSection(context)?.id === section.id,
      draft: false,
      path: section.path,
      ...(section.condition !== undefined ? { condition: section.condition } : {}),
      ...(section.icon !== undefined ? { icon: section.icon } : {}),
      siteSpaces: this.live(context, section.siteSpaces).map((s) => this.siteSpace(context, s, section)),
      urls: url === undefined ? {} : { published: url },
    };
  }

  /** Every live site space in the site's order, each with its section. */
  siteSpaces(context: StructureContext) {
    const { structure } = context;
    return [
      ...this.live(context, structure.siteSpaces).map((s) => this.siteSpace(context, s)),
      ...structure.sections.flatMap((section) =>
        this.live(context, section.siteSpaces).map((s) => this.siteSpace(context, s, section)),
      ),
    ];
  }

  structure(context: StructureContext) {
    const { sections } = context.structure;
    if (sections.length > 0)
      return { type: 'sections' as const, structure: sections.map((s) => this.section(context, s)) };
    return { type: 'siteSpaces' as const, structure: this.siteSpaces(context) };
  }
}
