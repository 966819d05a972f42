import type { DynamicModule } from '@nestjs/common';
import type { AnyAggregate } from '../domain/aggregate';
import type { AuditSubjects } from '../domain/audit-subject';
import type { Projection } from '../projector/projection';
import type { PathFixture } from './path-fixture';
import type { PlacedView } from './placed-view';
import type { RouteScope } from './route-scope';
import type { ServiceRole } from './service-role';

/** A feature's Nest module: the same class composed differently for each process role. */
export interface FeatureModuleClass {
  forRole(role: ServiceRole, features: readonly FeatureManifest[]): DynamicModule;
}

/**
 * Everything the rest of the product needs to know about a feature library, declared once in its
 * `<name>.feature.ts`; `libs/composition/features.ts` lists the manifests and derives every registry
 * from them (modules per role, aggregates and their handlers, projections, audit subjects, jobs, route
 * scopes, test fixtures).
 *
 * A manifest imports no Nest code at load: the projector's threads read projections and audit subjects
 * from it without paying for Nest (about half a second), so the module is loaded on demand.
 */
export interface FeatureManifest {
  name: string;
  /** Loads the feature's Nest module. */
  module(): Promise<FeatureModuleClass>;
  /**
   * The aggregates it owns (`aggregate({ name, decider, stream })` in its domain): each gets its one
   * command handler from the platform; whoever writes to one sends its `message` on the `CommandBus`.
   */
  aggregates?: readonly AnyAggregate[];
  /** The read models it projects; each writes only collections no other projection writes. */
  projections?: readonly Projection[] | ((features: readonly FeatureManifest[]) => readonly Projection[]);
  /** The audit log's subject of every event it appends inside an organization. */
  audited?: AuditSubjects;
  /** Names of the jobs its module handles (a `@JobHandler` provider for each, checked at start-up). */
  jobs?: readonly string[];
  /** Path parameters naming its resources, for route authorization (`@RequiresRole`). */
  scopes?: Readonly<Record<string, RouteScope>>;
  /** How the test suites get a real id for each of those path parameters. */
  fixtures?: Readonly<Record<string, PathFixture>>;
  /** Its view of documents ordered inside containers alongside other features' (`PLACED_VIEWS`). */
  placed?: PlacedView;
}

export function projectionsOf(features: readonly FeatureManifest[]): Projection[] {
  return features.flatMap((feature) => {
    const declared = feature.projections ?? [];
    return typeof declared === 'function' ? declared(features) : declared;
  });
}

/** Every aggregate of the product; two features may not declare one, nor two aggregates one name. */
export function aggregatesOf(features: readonly FeatureManifest[]): AnyAggregate[] {
  const byName = new Map<string, string>();
  const all: AnyAggregate[] = [];
  for (const feature of features) {
    for (const aggregate of feature.aggregates ?? []) {
      const owner = byName.get(aggregate.name);
      if (owner !== undefined) {
        throw new Error(`aggregate ${aggregate.name} is declared by ${owner} and ${feature.name}`);
      }
      byName.set(aggregate.name, feature.name);
      all.push(aggregate);
    }
  }
  return all;
}

/** Every scoped path parameter of the product; two features may not claim the same name. */
export function routeScopesOf(features: readonly FeatureManifest[]): Record<string, RouteScope> {
  const scopes: Record<string, RouteScope> = {};
  for (const feature of features) {
    for (const [param, scope] of Object.entries(feature.scopes ?? {})) {
      if (param in scopes) throw new Error(`path parameter ${param} is scoped by two features`);
      scopes[param] = scope;
    }
  }
  return scopes;
}
