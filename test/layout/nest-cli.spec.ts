import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const config = JSON.parse(readFileSync(join(ROOT, 'nest-cli.json'), 'utf8'));
const folders = (dir: string) =>
  readdirSync(join(ROOT, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
const projects = (type: string) =>
  Object.entries(config.projects as Record<string, { type: string }>)
    .filter(([, project]) => project.type === type)
    .map(([name]) => name)
    .sort();

/** `apps/scaffold` is the resource generator, a plain Node script (`npm run new:resource`), not a Nest app. */
const NOT_NEST_APPS = ['scaffold'];

describe('nest-cli.json', () => {
  it('lists every app under apps/ with its entry file, and nothing else', () => {
    expect(projects('application')).toEqual(folders('apps').filter((app) => !NOT_NEST_APPS.includes(app)));
    for (const app of projects('application')) {
      const project = config.projects[app];
      expect(project).toMatchObject({
        root: `apps/${app}`,
        sourceRoot: `apps/${app}/src`,
        entryFile: 'main',
      });
      expect(existsSync(join(ROOT, project.sourceRoot, `${project.entryFile}.ts`))).toBe(true);
    }
  });

  it('lists every library under libs/, and nothing else', () => {
    expect(projects('library')).toEqual(folders('libs'));
    for (const lib of projects('library')) {
      expect(config.projects[lib]).toMatchObject({ root: `libs/${lib}`, sourceRoot: `libs/${lib}` });
    }
  });

  it('builds the whole tree as `npm run build` ships it: apps and libs to dist/ with swc, paths kept', () => {
    expect(config.monorepo).toBe(true);
    expect(config.projects[config.root.replace('apps/', '')]).toBeDefined();
    expect(config.compilerOptions.builder).toMatchObject({
      type: 'swc',
      options: { filenames: ['apps', 'libs'], outDir: 'dist', stripLeadingPaths: false },
    });
    const scripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts;
    expect(scripts.build).toBe('nest build');
    expect(scripts['start:dev']).toMatch(/^nest start \S+ --watch$/);
  });
});
