import { auditFeature } from '@app/audit/audit.feature';
import { collectionsFeature } from '@app/collections/collections.feature';
import { commentsFeature } from '@app/comments/comments.feature';
import { contentFeature } from '@app/content/content.feature';
import { identityFeature } from '@app/identity/identity.feature';
import { invitesFeature } from '@app/invites/invites.feature';
import { linksFeature } from '@app/links/links.feature';
import { membersFeature } from '@app/members/members.feature';
import { organizationsFeature } from '@app/organizations/organizations.feature';
import { pdfFeature } from '@app/pdf/pdf.feature';
import { permissionsFeature } from '@app/permissions/permissions.feature';
import { type FeatureManifest, projectionsOf, routeScopesOf } from '@app/platform/feature/feature';
import type { PlacedView } from '@app/platform/feature/placed-view';
import type { RouteScope } from '@app/platform/feature/route-scope';
import type { Projection } from '@app/platform/projector/projection';
import { searchFeature } from '@app/search/search.feature';
import { sitesFeature } from '@app/sites/sites.feature';
import { spacesFeature } from '@app/spaces/spaces.feature';
import { ssoFeature } from '@app/sso/sso.feature';
import { teamsFeature } from '@app/teams/teams.feature';
import { translationsFeature } from '@app/translations/translations.feature';

/**
 * Every feature of the product, in dependency order (fixtures resolve in this order). Adding a feature
 * is its folder plus one line here: everything below, and the apps, the CLI and the test suites, derive
 * from this list. Nothing here loads Nest, so the projector's threads can read it cheaply.
 */
export const FEATURES: readonly FeatureManifest[] = [
  identityFeature,
  organizationsFeature,
  teamsFeature,
  membersFeature,
  invitesFeature,
  collectionsFeature,
  spacesFeature,
  permissionsFeature,
  contentFeature,
  commentsFeature,
  searchFeature,
  pdfFeature,
  linksFeature,
  translationsFeature,
  ssoFeature,
  auditFeature,
  sitesFeature,
];

/** Every read model of the product; the projector, the rebuild CLI and the tests all use this list. */
export const PROJECTION_LIST: Projection[] = projectionsOf(FEATURES);

/** Every job some feature runs. */
export const DECLARED_JOBS: readonly string[] = FEATURES.flatMap((feature) => feature.jobs ?? []);

/** Every path parameter that scopes a route to an organization, for `@RequiresRole`. */
export const ROUTE_SCOPE_LIST: Readonly<Record<string, RouteScope>> = routeScopesOf(FEATURES);

/** Every view of documents ordered side by side inside containers (spaces and collections). */
export const PLACED_VIEW_LIST: readonly PlacedView[] = FEATURES.flatMap((feature) => feature.placed ?? []);
