import { Access, type Viewer } from '@app/platform/auth/access';
import { DomainError, invalid } from '@app/platform/domain/decider';
import { atLeast } from '@app/platform/domain/roles';
import { PLACED_VIEWS, type PlacedView } from '@app/platform/feature/placed-view';
import { READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import { Inject, Injectable } from '@nestjs/common';
import type { ContentPointer, ContentPosition } from './position';

interface Placed {
  id: string;
  position: number;
}

const MAX_SIBLINGS = 10_000;

/**
 * Spaces and collections share one ordering inside their container (an organization's top level or a
 * collection). Positions are numbers; an insertion takes the midpoint of its neighbours, so a move
 * writes one event for the moved item only.
 */
@Injectable()
export class Placement {
  constructor(
    @Inject(READ_STORE) private readonly views: ReadStore,
    private readonly access: Access,
    @Inject(PLACED_VIEWS) private readonly placed: readonly PlacedView[],
  ) {}

  /**
   * The collection `parent` of `organization`, where `viewer` may create content (their effective role
   * there is at least `create`, or a 403); a 400 naming the field when it is not one they can reach.
   */
  async parentCollection(
    organization: string,
    parent: string | null,
    viewer: Viewer,
    field = 'parent',
  ): Promise<void> {
    if (parent === null) return;
    const doc = await this.views.get(this.view('collection').collection, parent);
    const role = doc?.organization === organization ? await this.access.roleOf(parent, viewer.userId) : null;
    if (!doc || !role) throw invalid(`${field}: no such collection in this organization`);
    if (!atLeast(role, 'create')) {
      throw new DomainError(
        'forbidden',
        `Your role in the collection (${role}) does not allow you to add content to it`,
      );
    }
  }

  /** Position for an item placed in (organization, parent), at the end unless `position` says otherwise. */
  async positionFor(
    organization: string,
    parent: string | null,
    position: ContentPosition | undefined,
    moving?: string,
  ): Promise<number> {
    const siblings = (await this.siblings(organization, parent)).filter((s) => s.id !== moving);
    const anchor = position?.before ?? position?.after;
    if (!anchor) return siblings.length ? siblings[siblings.length - 1].position + 1 : 1;
    const field = position?.before ? 'position.before' : 'position.after';
    const index = siblings.findIndex((s) => s.id === pointerId(anchor));
    if (index < 0) throw invalid(`${field}: the ${anchor.type} is not in the destination`);
    const here = siblings[index].position;
    if (position?.before) {
      const previous = siblings[index - 1];
      return previous ? (previous.position + here) / 2 : here - 1;
    }
    const next = siblings[index + 1];
    return next ? (here + next.position) / 2 : here + 1;
  }

  private async siblings(organization: string, parent: string | null): Promise<Placed[]> {
    const contents = await Promise.all(
      this.placed.map(({ collection, live }) =>
        this.views.find(collection, {
          where: { organization, parent, ...live },
          orderBy: 'position',
          limit: MAX_SIBLINGS,
        }),
      ),
    );
    return contents
      .flatMap((page) => page.items.map(({ id, position }) => ({ id, position })))
      .sort((a, b) => a.position - b.position || a.id.localeCompare(b.id));
  }

  private view(kind: string): PlacedView {
    const view = this.placed.find((placed) => placed.kind === kind);
    if (!view) throw new Error(`no feature declares the placed view of a ${kind}`);
    return view;
  }
}

function pointerId(pointer: ContentPointer): string {
  return (pointer.type === 'space' ? pointer.space : pointer.collection) ?? '';
}
