import type { Role } from '@app/platform/domain/roles';
import { SpacePresenter } from '@app/spaces/read/space.presenter';
import type { SpaceDoc } from '@app/spaces/read/space.projection';
import { Injectable } from '@nestjs/common';
import {
  defaultOf,
  type GroupEntry,
  groupOf,
  groupsOf,
  type SectionEntry,
  type SiteSpaceEntry,
  type Structure,
  topLevel,
} from '../domain/site-structure';
import { sharedUrl } from './share-link.keys';
import { SitePresenter } from './site.presenter';
import type { SiteDoc } from './site.projection';

/** What a site's structure is presented with: the site, and the live spaces its site spaces publish. */
export interface StructureContext {
  site: SiteDoc;
  structure: Structure;
  spaces: ReadonlyMap<string, SpaceDoc>;
  role: Role;
  /** The key of an active share link of the site the reader named: every published URL carries it. */
  shareKey?: string;
}

/**
 * GitBook's `SiteSpace`, `SiteSection`, `SiteSectionGroup` and `SiteStructure`. A site space whose space is gone (deleted or
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

  /** `urls` with the published URL, as the reader's share link opens it when they named one. */
  private urls(context: StructureContext, published: string | undefined) {
    if (published === undefined) return {};
    return { published: context.shareKey ? sharedUrl(published, context.shareKey) : published };
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
      urls: this.urls(context, base === undefined || isDefault ? base : `${base}/${entry.path}`),
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
      ...sectionGroupOf(context.structure, section.id),
      siteSpaces: this.live(context, section.siteSpaces).map((s) => this.siteSpace(context, s, section)),
      urls: this.urls(context, url),
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

  /** A group with its sections, in order (GitBook's deprecated `sections` and its `children` alike). */
  group(context: StructureContext, group: GroupEntry) {
    const sections = group.sections.flatMap((id) => {
      const section = context.structure.sections.find((s) => s.id === id);
      return section ? [this.section(context, section)] : [];
    });
    return {
      object: 'site-section-group' as const,
      id: group.id,
      title: group.title,
      ...(group.icon !== undefined ? { icon: group.icon } : {}),
      draft: false,
      sections,
      children: sections,
    };
  }

  /**
   * The top level of a site with sections (or groups and no root site spaces): its sections and groups in
   * order; else its site spaces.
   */
  structure(context: StructureContext) {
    const { structure } = context;
    const groups = groupsOf(structure);
    if (structure.sections.length > 0 || (groups.length > 0 && structure.siteSpaces.length === 0)) {
      type Item = ReturnType<SiteStructurePresenter['group']> | ReturnType<SiteStructurePresenter['section']>;
      const items = topLevel(structure).flatMap((id): Item[] => {
        const group = groups.find((g) => g.id === id);
        if (group) return [this.group(context, group)];
        const section = structure.sections.find((s) => s.id === id);
        return section ? [this.section(context, section)] : [];
      });
      return { type: 'sections' as const, structure: items };
    }
    return { type: 'siteSpaces' as const, structure: this.siteSpaces(context) };
  }
}

/** `sectionGroup`: the group holding the section, when one does. */
function sectionGroupOf(structure: Structure, sectionId: string) {
  const group = groupOf(structure, sectionId);
  return group ? { sectionGroup: group.id } : {};
}
