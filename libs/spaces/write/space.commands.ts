import { Placement } from '@app/placement/placement';
import type { MoveInput, TransferInput } from '@app/placement/position';
import { Access, type Viewer } from '@app/platform/auth/access';
import { conflict, DomainError, invalid, notFound } from '@app/platform/domain/decider';
import { newId } from '@app/platform/domain/ids';
import { atLeast, type DefaultLevel } from '@app/platform/domain/roles';
import { READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import { arg, Remote } from '@app/platform/rpc/remote-method';
import { apiContext, type CommandContext } from '@app/platform/write/command-context';
import { CommandRunner } from '@app/platform/write/command-runner';
import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { SpaceLanguage } from '../domain/language';
import { checkMergeRules, type MergeRulesConfiguration } from '../domain/merge-rules';
import { spaceAggregate } from '../domain/space.aggregate';
import { type EditMode, type SpaceCommand } from '../domain/space.decider';
import { SPACES } from '../read/space.projection';

export interface CreateSpaceInput {
  title?: string;
  emoji?: string;
  parent?: string;
  editMode?: EditMode;
  language?: SpaceLanguage;
}

export interface UpdateSpaceInput {
  editMode?: EditMode;
  language?: SpaceLanguage;
  mergeRules?: MergeRulesConfiguration;
  title?: string;
  defaultLevel?: DefaultLevel;
  /** null removes the emoji. */
  emoji?: string | null;
  /** URL of an icon, shown instead of the emoji; null removes it. */
  icon?: string | null;
}

export interface TransferSpaceInput extends TransferInput {
  parent?: string;
}

/**
 * Turns requests into space commands with what only the read side knows (parents, positions) and
 * dispatches them. The caller's role on the space was checked by the route (`@RequiresRole`).
 */
@Injectable()
export class SpaceService {
  constructor(
    private readonly bus: CommandBus,
    private readonly runner: CommandRunner,
    private readonly access: Access,
    private readonly placement: Placement,
    @Inject(READ_STORE) private readonly views: ReadStore,
  ) {}

  private run(spaceId: string, command: SpaceCommand, ctx: CommandContext) {
    return this.bus.execute(spaceAggregate.message(spaceId, command, ctx));
  }

  private async space(spaceId: string) {
    const doc = await this.views.get(SPACES, spaceId);
    if (!doc) throw notFound('Space not found');
    return doc;
  }

  @Remote(arg.id('organization'), arg.object<CreateSpaceInput>('body'), arg.viewer())
  async create(organization: string, body: CreateSpaceInput, viewer: Viewer) {
    const parent = body.parent ?? null;
    await this.placement.parentCollection(organization, parent, viewer);
    const spaceId = newId();
    const result = await this.run(
      spaceId,
      {
        type: 'CreateSpace',
        spaceId,
        organization,
        parent,
        settings: {
          title: body.title ?? '',
          emoji: body.emoji ?? '',
          editMode: body.editMode ?? 'live',
          defaultLevel: 'inherit',
          ...(body.language ? { language: body.language } : {}),
        },
        revision: newId(),
        position: await this.placement.positionFor(organization, parent, undefined),
        at: this.runner.now(),
      },
      apiContext(viewer),
    );
    return { spaceId, ...result };
  }

  @Remote(
    arg.id('spaceId'),
    arg.object<UpdateSpaceInput>('body'),
    arg.viewer(),
    arg.optional(arg.int('ifMatch')),
  )
  async update(spaceId: string, body: UpdateSpaceInput, viewer: Viewer, ifMatch?: number) {
    if (body.defaultLevel !== undefined)
      await this.access.mayOpen(spaceId, body.defaultLevel, viewer, 'Space');
    const { emoji, mergeRules, ...rest } = body;
    const changes = {
      ...rest,
      ...(emoji !== undefined ? { emoji: emoji ?? '' } : {}),
      ...(mergeRules !== undefined ? { mergeRules: checkMergeRules(mergeRules) } : {}),
    };
    return this.run(
      spaceId,
      { type: 'UpdateSpace', changes, at: this.runner.now() },
      { ...apiContext(viewer), ifMatch },
    );
  }

  /** Deleting a deleted space changes nothing and says so (204). */
  @Remote(arg.id('spaceId'), arg.viewer(), arg.optional(arg.int('ifMatch')))
  async delete(spaceId: string, viewer: Viewer, ifMatch?: number) {
    const doc = await this.space(spaceId);
    const result = await this.run(
      spaceId,
      { type: 'DeleteSpace', at: this.runner.now() },
      { ...apiContext(viewer), ifMatch },
    );
    return { ...result, alreadyDeleted: doc.deleted };
  }

  @Remote(arg.id('spaceId'), arg.viewer())
  restore(spaceId: string, viewer: Viewer) {
    return this.run(spaceId, { type: 'RestoreSpace', at: this.runner.now() }, apiContext(viewer));
  }

  /**
   * A copy of the space's settings (its default level, not its grants) that starts with the content of its current revision: the new
   * space's first revision holds the same content root, whose objects (named by their hash) are
   * readable from any space, so nothing is copied but the root.
   */
  @Remote(arg.id('spaceId'), arg.viewer())
  async duplicate(spaceId: string, viewer: Viewer) {
    const source = await this.space(spaceId);
    if (source.deleted) throw conflict('Space is deleted; restore it first');
    // The copy lands beside the source, so the caller needs `create` there, as for any new space.
    const there = source.parent
      ? await this.access.roleOf(source.parent, viewer.userId)
      : await this.access.roleIn(source.organization, viewer.userId);
    if (!atLeast(there, 'create')) {
      throw new DomainError(
        'forbidden',
        'A copy lands beside the space: that needs create in its collection or organization',
      );
    }
    const copyId = newId();
    const result = await this.run(
      copyId,
      {
        type: 'CreateSpace',
        spaceId: copyId,
        organization: source.organization,
        parent: source.parent,
        settings: {
          title: source.title,
          emoji: source.emoji,
          editMode: source.editMode,
          defaultLevel: source.defaultLevel,
          ...(source.language ? { language: source.language } : {}),
          ...(source.icon ? { icon: source.icon } : {}),
        },
        revision: newId(),
        ...(source.root ? { root: source.root } : {}),
        position: await this.placement.positionFor(source.organization, source.parent, {
          after: { type: 'space', space: source.id },
        }),
        at: this.runner.now(),
        duplicatedFrom: source.id,
      },
      apiContext(viewer),
    );
    return { spaceId: copyId, ...result };
  }

  @Remote(arg.id('spaceId'), arg.object<MoveInput>('body'), arg.viewer())
  async move(spaceId: string, body: MoveInput, viewer: Viewer) {
    if (body.parent === undefined && body.position === undefined)
      throw invalid('body: give parent, position or both');
    const doc = await this.space(spaceId);
    if (doc.deleted) throw conflict('Space is deleted; restore it first');
    const parent = body.parent === undefined ? doc.parent : body.parent;
    await this.placement.parentCollection(doc.organization, parent, viewer);
    await this.access.mayMove(spaceId, parent, viewer, 'Space');
    const position = await this.placement.positionFor(doc.organization, parent, body.position, spaceId);
    if (parent === doc.parent && position === doc.position)
      throw conflict('The move would not change anything');
    return this.run(
      spaceId,
      { type: 'MoveSpace', parent, position, at: this.runner.now() },
      apiContext(viewer),
    );
  }

  /**
   * The route checks the caller administers the space; taking it out of its organization needs admin of
   * that organization, and of the destination.
   */
  @Remote(arg.id('spaceId'), arg.object<TransferSpaceInput>('body'), arg.viewer())
  async transfer(spaceId: string, body: TransferSpaceInput, viewer: Viewer) {
    const doc = await this.space(spaceId);
    await this.access.organizationAdmin(doc.organization, viewer, 'transfer its content');
    await this.access.require(body.organization, viewer, 'admin', 'Organization', 'transfer content into it');
    const parent = body.parent ?? null;
    if (body.organization === doc.organization && parent === doc.parent) {
      throw conflict('The transfer would not change anything');
    }
    await this.placement.parentCollection(body.organization, parent, viewer);
    const position = await this.placement.positionFor(body.organization, parent, undefined, spaceId);
    return this.run(
      spaceId,
      { type: 'TransferSpace', organization: body.organization, parent, position, at: this.runner.now() },
      apiContext(viewer),
    );
  }
}
