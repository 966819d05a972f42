import { auditSubjects } from '@app/platform/domain/audit-subject';
import type { CollectionEvent } from './collection.decider';

/** What each collection event is about, for the audit log; a transfer takes everything below along. */
export const collectionAuditSubjects = auditSubjects<CollectionEvent>()({
  collection: {
    CollectionCreated: (d) => ({
      type: 'collection',
      id: d.id,
      organization: d.organization,
      label: d.title,
    }),
    CollectionUpdated: (d) => ({ type: 'collection', id: d.collectionId, label: d.changes.title }),
    CollectionMoved: (d) => ({ type: 'collection', id: d.collectionId }),
    CollectionTransferred: (d) => ({
      type: 'collection',
      id: d.collectionId,
      organization: d.fromOrganization,
      destination: d.organization,
      carries: [
        ...d.contents.collections.map((id) => ({ type: 'collection', id })),
        ...d.contents.spaces.map((id) => ({ type: 'space', id })),
      ],
    }),
    CollectionDeleted: (d) => ({ type: 'collection', id: d.collectionId, organization: d.organization }),
  },
});
