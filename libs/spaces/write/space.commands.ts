import { apiContext, type MoveDto, Placement } from '@app/collections';
import { Access, type Viewer } from '@app/platform/auth/access';
import { conflict, invalid } from '@app/platform/domain/decider';
import { newId } from '@app/platform/domain/ids';
import type { Role } from '@app/platform/domain/roles';
import type { CommandContext, WriteResult } from '@app/platform/write/command-context';
import { CommandRunner } from '@app/platform/write/command-runner';
import { Injectable } from '@nestjs/common';
import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type SpaceCommand, spaceDecider, spaceStream } from '../domain/space.decider';
import type { CreateSpaceDto, TransferSpaceDto, UpdateSpaceDto } from '../http/spaces.dto';
import type { SpaceDoc } from '../read/space.projection';

export class RunSpaceCommand {
  constructor(
    readonly spaceId: string,
    readonly command: SpaceCommand,
    readonly ctx: CommandContext,
  ) {}
}

@CommandHandler(RunSpaceCommand)
export class SpaceCommandHandler implements ICommandHandler<RunSpaceCommand, WriteResult> {
  constructor(private readonly runner: CommandRunner) {}
  execute({ spaceId, command, ctx }: RunSpaceCommand): Promise<WriteResult> {
    return this.runner.run(spaceDecider, spaceStream(spaceId), command, ctx);
  }
}

/** Checks what the caller may do and what the read side knows (parents, positions), then dispatches. */
@Injectable()
export class SpaceService {
  constructor(
    private readonly bus: CommandBus,
    private readonly runner: CommandRunner,
    private readonly access: Access,
    private readonly placement: Placement,
  ) {}

  private run(spaceId: string, command: SpaceCommand, ctx: CommandContext) {
    return this.bus.execute<RunSpaceCommand, WriteResult>(new RunSpaceCommand(spaceId, command, ctx));
  }

  /** The space, once the caller's role (at least `role`) allows `action` on it. */
  private authorize(spaceId: string, viewer: Viewer, role: Role, action: string) {
    return this.access.requireOn<SpaceDoc>('spaces', spaceId, viewer, role, 'Space', action);
  }

  async create(organization: string, body: CreateSpaceDto, viewer: Viewer) {
    await this.access.require(organization, viewer, 'create', 'Organization', 'create spaces');
    const parent = body.parent ?? null;
    await this.placement.parentCollection(organization, parent);
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
        },
        revision: newId(),
        position: await this.placement.positionFor(organization, parent, undefined),
        at: this.runner.now(),
      },
      apiContext(viewer),
    );
    return { spaceId, ...result };
  }

  async update(spaceId: string, body: UpdateSpaceDto, viewer: Viewer, ifMatch?: number) {
    await this.authorize(spaceId, viewer, 'create', 'update this space');
    const { emoji, ...rest } = body;
    const changes = { ...rest, ...(emoji !== undefined ? { emoji: emoji ?? '' } : {}) };
    return this.run(
      spaceId,
      { type: 'UpdateSpace', changes, at: this.runner.now() },
      { ...apiContext(viewer), ifMatch },
    );
  }

  /** Deleting a deleted space changes nothing and says so (204). */
  async delete(spaceId: string, viewer: Viewer, ifMatch?: number) {
    const doc = await this.authorize(spaceId, viewer, 'admin', 'delete this space');
    const result = await this.run(
      spaceId,
      { type: 'DeleteSpace', at: this.runner.now() },
      { ...apiContext(viewer), ifMatch },
    );
    return { ...result, alreadyDeleted: doc.deleted };
  }

  async restore(spaceId: string, viewer: Viewer) {
    await this.authorize(spaceId, viewer, 'admin', 'restore this space');
    return this.run(spaceId, { type: 'RestoreSpace', at: this.runner.now() }, apiContext(viewer));
  }

  async duplicate(spaceId: string, viewer: Viewer) {
    const source = await this.authorize(spaceId, viewer, 'create', 'duplicate this space');
    if (source.deleted) throw conflict('Space is deleted; restore it first');
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
        },
        revision: newId(),
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

  async move(spaceId: string, body: MoveDto, viewer: Viewer) {
    if (body.parent === undefined && body.position === undefined)
      throw invalid('body: give parent, position or both');
    const doc = await this.authorize(spaceId, viewer, 'create', 'move this space');
    if (doc.deleted) throw conflict('Space is deleted; restore it first');
    const parent = body.parent === undefined ? doc.parent : body.parent;
    await this.placement.parentCollection(doc.organization, parent);
    const position = await this.placement.positionFor(doc.organization, parent, body.position, spaceId);
    if (parent === doc.parent && position === doc.position)
      throw conflict('The move would not change anything');
    return this.run(
      spaceId,
      { type: 'MoveSpace', parent, position, at: this.runner.now() },
      apiContext(viewer),
    );
  }

  async transfer(spaceId: string, body: TransferSpaceDto, viewer: Viewer) {
    const doc = await this.authorize(spaceId, viewer, 'admin', 'transfer this space');
    await this.access.require(body.organization, viewer, 'admin', 'Organization', 'transfer content into it');
    const parent = body.parent ?? null;
    if (body.organization === doc.organization && parent === doc.parent) {
      throw conflict('The transfer would not change anything');
    }
    await this.placement.parentCollection(body.organization, parent);
    const position = await this.placement.positionFor(body.organization, parent, undefined, spaceId);
    return this.run(
      spaceId,
      { type: 'TransferSpace', organization: body.organization, parent, position, at: this.runner.now() },
      apiContext(viewer),
    );
  }
}
