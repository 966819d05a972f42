import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Config } from '@app/platform/config/config';
import { newClaimsKeyPem, parseClaimsKeys, publicJwks } from '../domain/visitor-claims';
import { DEV_KEY_FILE, VisitorClaimsKeys } from './visitor-claims.keys';

describe('VisitorClaimsKeys without configured keys', () => {
  let dataDir: string;
  const keys = () => new VisitorClaimsKeys({ dataDir, publicUrl: 'http://docs.test' } as Config);

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'claims-keys-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('draws a key once, readable by its owner only, and every later start reads the same', () => {
    const first = keys().jwks();
    expect(keys().jwks()).toEqual(first);
    expect(readdirSync(dataDir)).toEqual([DEV_KEY_FILE]);
    expect(statSync(join(dataDir, DEV_KEY_FILE)).mode & 0o777).toBe(0o600);
  });

  it('reads a key already in place (another process drew it) and draws none', () => {
    const pem = newClaimsKeyPem();
    writeFileSync(join(dataDir, DEV_KEY_FILE), pem);
    expect(keys().jwks()).toEqual(publicJwks(parseClaimsKeys(pem)));
    expect(readdirSync(dataDir)).toEqual([DEV_KEY_FILE]);
  });
});
