/** Points at a sibling space or collection. */
export interface ContentPointer {
  type: 'space' | 'collection';
  space?: string;
  collection?: string;
}

/** Where an item goes among its siblings: before or after one of them; at the end when neither. */
export interface ContentPosition {
  before?: ContentPointer;
  after?: ContentPointer;
}

/** A move: a new parent collection (null for the top level), a position, or both. */
export interface MoveInput {
  parent?: string | null;
  position?: ContentPosition;
}

/** A transfer to another organization. */
export interface TransferInput {
  organization: string;
}
