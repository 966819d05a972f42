import type { Hash } from '@app/documents/tree/hash';
import type { ObjectStore } from '@app/documents/tree/objects';
import type { ContentQueries } from './read/content.queries';
import type { RevisionPresenter } from './read/revision.presenter';

/**
 * Content as other features read it: search, PDF exports and links import this file of libs/content and
 * no other (`.dependency-cruiser.js`). It loads no Nest code, since a manifest's projection reads it too:
 * the services are abstract classes, the tokens under which the content module provides its own to every
 * module (`content.module.ts`), one instance of each per process.
 */

/** A revision's content objects by hash (`ContentObjects`): kept parsed in memory, read from the log. */
export abstract class ContentObjectStore implements ObjectStore {
  abstract get(hash: Hash): unknown | Promise<unknown>;
}

/**
 * The content a source names (`ContentQueries`): its root, revision and scope, once the caller is found
 * to be a member of the space's organization.
 */
export abstract class ContentSources {
  abstract resolveSource: ContentQueries['resolveSource'];
}

/** Stored content in GitBook's response shapes (`RevisionPresenter`). */
export abstract class RevisionPresentation {
  abstract pageTree: RevisionPresenter['pageTree'];
  abstract file: RevisionPresenter['file'];
  abstract reusableContent: RevisionPresenter['reusableContent'];
}

// Also: where a content read starts (`ContentSource`), the revisions view, content objects as a
// projection reads them, and the events content appends with the projection of the objects they store
// (for the tests of what projects them).
export { type ContentObjectsEvent, contentObjectsStream } from './domain/content-objects.decider';
export { type SpaceContentEvent, spaceContentStream } from './domain/space-content.decider';
export { contentObjectProjection, viewedObjects } from './read/content-object.projection';
export { type ContentSource, SOURCE_PATTERN } from './read/content-source';
export { REVISIONS } from './read/revision.projection';
