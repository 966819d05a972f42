import type { ChangedCollections, ViewChanges } from './view-changes';

/**
 * View-change announcements a test makes itself: `announce` tells every listener what changed;
 * `active` says whether announcements are flowing (caches may answer only then).
 */
export function announcedChanges(active = true): {
  changes: ViewChanges;
  announce: (changed: ChangedCollections) => void;
} {
  const listeners: ((changed: ChangedCollections) => void)[] = [];
  return {
    changes: {
      onChange: (listener) => listeners.push(listener),
      active: () => active,
      covers: () => true,
    },
    announce: (changed) => {
      for (const listener of listeners) listener(changed);
    },
  };
}
