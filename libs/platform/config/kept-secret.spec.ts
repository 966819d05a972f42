import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keptSecret } from './kept-secret';

describe('keptSecret', () => {
  let dir: string;
  beforeEach(() => {
    dir = join(mkdtempSync(join(tmpdir(), 'kept-')), 'data');
  });
  afterEach(() => rmSync(join(dir, '..'), { recursive: true, force: true }));

  it('draws once into the data directory, readable by its owner only, and keeps it', () => {
    let draws = 0;
    const draw = () => `secret-${++draws}`;
    expect(keptSecret(dir, 'key', draw)).toBe('secret-1');
    expect(keptSecret(dir, 'key', draw)).toBe('secret-1');
    expect(draws).toBe(1);
    expect(statSync(join(dir, 'key')).mode & 0o777).toBe(0o600);
  });
});
