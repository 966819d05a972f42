import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DECLARED_JOBS, FEATURES, PROJECTION_LIST, ROUTE_SCOPE_LIST } from './features';

const BUILT = join(__dirname, '..', '..', 'dist', 'libs', 'composition', 'features.js');

describe('the feature list', () => {
  it('names each feature once', () => {
    const names = FEATURES.map((feature) => feature.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('gives every read-model collection exactly one projection that writes it', () => {
    const writers = new Map<string, string[]>();
    for (const projection of PROJECTION_LIST) {
      for (const collection of projection.collections)
        writers.set(collection, [...(writers.get(collection) ?? []), projection.name]);
      for (const index of projection.indexes) expect(projection.collections).toContain(index.collection);
    }
    const shared = [...writers].filter(([, names]) => names.length > 1);
    expect(shared).toEqual([]);
    expect(new Set(PROJECTION_LIST.map((p) => p.name)).size).toBe(PROJECTION_LIST.length);
  });

  it('declares each job once', () => {
    expect(new Set(DECLARED_JOBS).size).toBe(DECLARED_JOBS.length);
  });

  it('has a test fixture for every scoped path parameter', () => {
    const fixtures = new Set(FEATURES.flatMap((feature) => Object.keys(feature.fixtures ?? {})));
    for (const param of Object.keys(ROUTE_SCOPE_LIST)) expect(fixtures).toContain(param);
  });

  // The projector's threads load this list; Nest would cost them about half a second and tens of MB.
  it('loads no Nest code until a feature module is asked for', () => {
    if (!existsSync(BUILT)) throw new Error('dist/ is missing: run `npm run build` first');
    const script = `require(${JSON.stringify(BUILT)});
      process.stdout.write(JSON.stringify(Object.keys(require.cache).filter((path) => path.includes('@nestjs'))));`;
    const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual([]);
  });
});
