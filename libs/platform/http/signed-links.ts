import { createHmac, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Config } from '../config/config';
import { CONFIG } from '../config/config.module';
import { DomainError } from '../domain/decider';

/**
 * Temporary links that need no token: what they grant is in the link itself, with its expiry, signed
 * with the configured key (HMAC-SHA256, 256 bits a guess would have to match). Anyone holding the link
 * may use it until it expires, as GitBook's download links.
 */
@Injectable()
export class SignedLinks {
  constructor(@Inject(CONFIG) private readonly config: Config) {}

  sign(claims: Record<string, unknown>, expiresAt: number): string {
    const payload = Buffer.from(JSON.stringify({ ...claims, exp: expiresAt })).toString('base64url');
    return `${payload}.${this.mac(payload)}`;
  }

  /** The claims of a link signed here and not expired; else a 404 (a bad link reveals nothing). */
  verify(token: string, now: number): Record<string, unknown> {
    const [payload, mac] = token.split('.');
    const expected = payload ? Buffer.from(this.mac(payload)) : undefined;
    const given = Buffer.from(mac ?? '');
    if (!expected || given.length !== expected.length || !timingSafeEqual(given, expected)) throw gone();
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    if (typeof claims.exp !== 'number' || claims.exp < now) throw gone();
    return claims;
  }

  private mac(payload: string): string {
    return createHmac('sha256', this.config.signingKey).update(payload).digest('base64url');
  }
}

const gone = () => new DomainError('not_found', 'This link is not valid, or has expired');
