import { Placement } from '@app/placement/placement';
import type { MoveInput, TransferInput } from '@app/placement/position';
import { Access, type Viewer } from '@app/platform/auth/access';
import { conflict, invalid, notFound } from '@app/platform/domain/decider';
import { newId } from '@app/platform/domain/ids';
import type { DefaultLevel } from '@app/platform/domain/roles';
import { READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import { arg, Remote } from '@app/platform/rpc/remote-method';
import { apiContext } from '@app/platform/write/command-context';
import { CommandRunner } from '@app/platform/write/command-runner';
import { SPACES } from '@app/spaces/read/space.projection';
import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { collectionAggregate } from '../domain/collection.aggregate';
import { type CollectionCommand, type CollectionContents } from '../domain/collection.decider';
import { COLLECTIONS, type CollectionDoc } from '../read/collection.projection';

export interface CreateCollectionInput {
  title?: string;
  parent?: string;
}

export interface UpdateCollectionInput {
  title?: string;
  description?: string;
  defaultLevel?: DefaultLevel;
}

/**
 * Turns requests into collection commands with what only the read side knows (parents, positions,
 * contents) and dispatches them. The caller's role was checked by the route (`@RequiresRole`).
 */
@Injectable()
export class CollectionService {
  constructor(
    private readonly bus: CommandBus,
    private readonly runner: CommandRunner,
    private readonly access: Access,
    private readonly placement: Placement,
    @Inject(READ_STORE) private readonly views: ReadStore,
  ) {}

  private run(collectionId: string, command: CollectionCommand, viewer: Viewer, ifMatch?: number) {
    return this.bus.execute(
      collectionAggregate.message(collectionId, command, { ...apiContext(viewer), ifMatch }),
    );
  }

  private async collection(collectionId: string): Promise<CollectionDoc> {
    const doc = await this.views.get(COLLECTIONS, collectionId);
    if (!doc) throw notFound('Collection not found');
    return doc;
  }

  @Remote(arg.id('organization'), arg.object<CreateCollectionInput>('body'), arg.viewer())
  async create(organization: string, body: CreateCollectionInput, viewer: Viewer) {
    const parent = body.parent ?? null;
    await this.placement.parentCollection(organization, parent, viewer);
    const collectionId = newId();
    const result = await this.run(
      collectionId,
      {
        type: 'CreateCollection',
        collectionId,
        organization,
        parent,
        settings: { title: body.title ?? 'Untitled', description: null, defaultLevel: 'inherit' },
        position: await this.placement.positionFor(organization, parent, undefined),
        at: this.runner.now(),
      },
      viewer,
    );
    return { collectionId, ...result };
  }

  @Remote(
    arg.id('collectionId'),
    arg.object<UpdateCollectionInput>('body'),
    arg.viewer(),
    arg.optional(arg.int('ifMatch')),
  )
  async update(collectionId: string, body: UpdateCollectionInput, viewer: Viewer, ifMatch?: number) {
    if (body.defaultLevel !== undefined)
      await this.access.mayOpen(collectionId, body.defaultLevel, viewer, 'Collection');
    const command = { type: 'UpdateCollection' as const, changes: body, at: this.runner.now() };
    return this.run(collectionId, command, viewer, ifMatch);
  }

  @Remote(arg.id('collectionId'), arg.viewer(), arg.optional(arg.int('ifMatch')))
  delete(collectionId: string, viewer: Viewer, ifMatch?: number) {
    return this.run(collectionId, { type: 'DeleteCollection', at: this.runner.now() }, viewer, ifMatch);
  }

  @Remote(arg.id('collectionId'), arg.object<MoveInput>('body'), arg.viewer())
  async move(collectionId: string, body: MoveInput, viewer: Viewer) {
    if (body.parent === undefined && body.position === undefined)
      throw invalid('body: give parent, position or both');
    const doc = await this.collection(collectionId);
    const parent = body.parent === undefined ? doc.parent : body.parent;
    if (parent !== null) {
      await this.placement.parentCollection(doc.organization, parent, viewer);
      if (parent === collectionId || (await this.ancestors(parent)).includes(collectionId)) {
        throw invalid('parent: a collection cannot be moved into itself or one of its sub-collections');
      }
    }
    await this.access.mayMove(collectionId, parent, viewer, 'Collection');
    const position = await this.placement.positionFor(doc.organization, parent, body.position, collectionId);
    if (parent === doc.parent && position === doc.position)
      throw conflict('The move would not change anything');
    return this.run(
      collectionId,
      { type: 'MoveCollection', parent, position, at: this.runner.now() },
      viewer,
    );
  }

  /**
   * The route checks the caller administers the collection; taking it (and all it holds) out of its
   * organization needs admin of that organization, and of the destination.
   */
  @Remote(arg.id('collectionId'), arg.object<TransferInput>('body'), arg.viewer())
  async transfer(collectionId: string, body: TransferInput, viewer: Viewer) {
    const doc = await this.collection(collectionId);
    await this.access.organizationAdmin(doc.organization, viewer, 'transfer its content');
    await this.access.require(body.organization, viewer, 'admin', 'Organization', 'transfer content into it');
    const position = await this.placement.positionFor(body.organization, null, undefined);
    const contents = await this.contents(collectionId);
    return this.run(
      collectionId,
      {
        type: 'TransferCollection',
        organization: body.organization,
        position,
        contents,
        at: this.runner.now(),
      },
      viewer,
    );
  }

  /** Every collection and space below a collection, however deep. */
  private async contents(collectionId: string): Promise<CollectionContents> {
    const collections: string[] = [];
    const spaces: string[] = [];
    for (let queue = [collectionId]; queue.length > 0; ) {
      const parent = queue.shift() as string;
      const [subs, inside] = await Promise.all([
        this.views.find(COLLECTIONS, { where: { parent }, limit: 10_000 }),
        this.views.find(SPACES, { where: { parent }, limit: 10_000 }),
      ]);
      collections.push(...subs.items.map((c) => c.id));
      spaces.push(...inside.items.map((s) => s.id));
      queue.push(...subs.items.map((c) => c.id));
    }
    return { collections, spaces };
  }

  private async ancestors(collectionId: string): Promise<string[]> {
    const out: string[] = [];
    for (let id: string | null = collectionId; id && out.length < 100; ) {
      const doc: CollectionDoc | null = await this.views.get(COLLECTIONS, id);
      id = doc?.parent ?? null;
      if (id) out.push(id);
    }
    return out;
  }
}
