import { auditSubjects } from '@app/platform/domain/audit-subject';
import type { SpaceEvent } from './space.decider';

/** What each space event is about, for the audit log. */
export const spaceAuditSubjects = auditSubjects<SpaceEvent>()({
  space: {
    SpaceCreated: (d) => ({ type: 'space', id: d.id, organization: d.organization, label: d.title }),
    SpaceUpdated: (d) => ({ type: 'space', id: d.spaceId, label: d.changes.title }),
    SpaceDeleted: (d) => ({ type: 'space', id: d.spaceId }),
    SpaceRestored: (d) => ({ type: 'space', id: d.spaceId }),
    SpacePurged: (d) => ({ type: 'space', id: d.spaceId }),
    SpaceMoved: (d) => ({ type: 'space', id: d.spaceId }),
    SpaceTransferred: (d) => ({
      type: 'space',
      id: d.spaceId,
      organization: d.fromOrganization,
      destination: d.organization,
    }),
  },
});
