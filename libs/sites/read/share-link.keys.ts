import type { Config } from '@app/platform/config/config';
import { CONFIG } from '@app/platform/config/config.module';
import { derivedSecret, hashSecret } from '@app/platform/domain/ids';
import { Inject, Injectable } from '@nestjs/common';

/** A key is the base64url of an HMAC-SHA256: 43 characters. */
export const SHARE_LINK_KEY_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** A published URL as a share link opens it: with its key as `shareKey`. */
export function sharedUrl(published: string, key: string): string {
  const url = new URL(published);
  url.searchParams.set('shareKey', key);
  return url.toString();
}

/**
 * The key of a share link: HMAC-SHA256 of its id under the server's signing key (256 bits nobody can
 * guess without that key). Derived rather than drawn, so no key is ever stored, in the log or the views,
 * yet every read can show the link's URL as GitBook does; what is stored is the key's hash, what a
 * visitor's key is looked up by. The signing key must therefore stay the same across restarts and
 * processes (`SIGNING_KEY`): another one gives every link another key, and the old URLs stop resolving.
 */
@Injectable()
export class ShareLinkKeys {
  constructor(@Inject(CONFIG) private readonly config: Config) {}

  keyOf(shareLinkId: string): string {
    return derivedSecret(this.config.signingKey, `share-link:${shareLinkId}`);
  }

  hashOf(key: string): string {
    return hashSecret(key);
  }
}
