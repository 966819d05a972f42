import type { CollectionName, Doc, Scalar } from '../readstore/read-store.port';

/** What a document placed inside a container (an organization's top level, or a collection) holds. */
export interface PlacedDoc extends Doc {
  organization: string;
  parent: string | null;
  position: number;
}

/**
 * A view whose documents share one ordering inside their containers with other features' (spaces and
 * collections sit side by side), declared by the feature that projects it (`FeatureManifest.placed`), so
 * that what orders them reads every such view without importing the features that keep them.
 */
export interface PlacedView {
  /** What the documents are (`space`, `collection`): how a position's anchor names one. */
  kind: string;
  collection: CollectionName<PlacedDoc>;
  /** Fields a document must have to count among its container's contents (a deleted space does not). */
  live?: Readonly<Record<string, Scalar>>;
}

/** Injection token of every feature's `PlacedView`, derived from the manifests. */
export const PLACED_VIEWS = Symbol('PLACED_VIEWS');
