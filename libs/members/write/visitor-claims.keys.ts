import type { Config } from '@app/platform/config/config';
import { CONFIG } from '@app/platform/config/config.module';
import { keptSecret } from '@app/platform/config/kept-secret';
import { Inject, Injectable } from '@nestjs/common';
import {
  type ClaimsKey,
  newClaimsKeyPem,
  parseClaimsKeys,
  publicJwks,
  signClaims,
} from '../domain/visitor-claims';

/** Where an install without `VISITOR_CLAIMS_KEYS` keeps the key it drew, so restarts keep it. */
export const DEV_KEY_FILE = 'visitor-claims-key.pem';

/** How long the claims a ping hands out stay valid. */
export const CLAIMS_TTL_SECONDS = 3600;

/**
 * The keys of the visitor claims: those configured, or else one drawn once and kept in the data
 * directory. Read at start, so a bad `VISITOR_CLAIMS_KEYS` stops the process saying why.
 */
@Injectable()
export class VisitorClaimsKeys {
  private readonly keys: ClaimsKey[];

  constructor(@Inject(CONFIG) private readonly config: Config) {
    this.keys = this.load();
  }

  private load(): ClaimsKey[] {
    if (this.config.visitorClaimsKeys) {
      try {
        return parseClaimsKeys(this.config.visitorClaimsKeys);
      } catch (error) {
        throw new Error(`Invalid configuration: VISITOR_CLAIMS_KEYS ${(error as Error).message}`);
      }
    }
    return parseClaimsKeys(keptSecret(this.config.dataDir, DEV_KEY_FILE, newClaimsKeyPem));
  }

  /** Signed claims about a member of an organization, for the hosted content to trust. */
  sign(claims: Record<string, unknown>, now: number): string {
    const iat = Math.floor(now / 1000);
    return signClaims(this.keys[0], {
      iss: this.config.publicUrl,
      iat,
      exp: iat + CLAIMS_TTL_SECONDS,
      ...claims,
    });
  }

  jwks() {
    return publicJwks(this.keys);
  }
}
