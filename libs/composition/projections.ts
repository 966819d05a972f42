import { auditProjection } from '@app/audit/read/audit.projection';
import { collectionProjection } from '@app/collections/read/collection.projection';
import { identityProjection } from '@app/identity/read/identity.projection';
import { organizationProjection } from '@app/organizations/read/organization.projection';
import type { Projection } from '@app/platform/projector/projection';
import { spaceProjection } from '@app/spaces/read/space.projection';

/**
 * Every read model of the product; the projector, the rebuild CLI and the tests all use this list. Kept
 * apart from the feature modules so that the projector thread loads the projections without Nest.
 */
export const PROJECTION_LIST: Projection[] = [
  identityProjection,
  organizationProjection,
  collectionProjection,
  spaceProjection,
  auditProjection,
];
