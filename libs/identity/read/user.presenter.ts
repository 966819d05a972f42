import type { Urls } from '@app/platform/http/urls';
import type { UserDoc } from './identity.projection';

/**
 * GitBook's `User`, as embedded in other resources (`createdBy`, `mergedBy`, …). A user removed from
 * the views (none are yet) is shown by id, so the embedding resource still presents.
 */
export function presentUser(urls: Urls, id: string, doc: UserDoc | null) {
  return {
    object: 'user' as const,
    id,
    displayName: doc?.displayName ?? id,
    ...(doc ? { email: doc.email } : {}),
    urls: { location: urls.api(`/users/${id}`) },
  };
}
