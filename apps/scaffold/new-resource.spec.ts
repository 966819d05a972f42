import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const BIN = join(ROOT, 'node_modules', '.bin');

/** What the generated code is checked with, beside the tree it joins: what `npm test` checks first. */
const TREE = [
  'apps',
  'libs',
  'test',
  'tsconfig.json',
  '.swcrc',
  'biome.json',
  'jest.config.js',
  '.dependency-cruiser.js',
];

/** Runs a command in the tree; its output when it fails (a failing check says why). */
function run(cwd: string, command: string, args: string[]) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  const output = `${result.stdout}\n${result.stderr}`;
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed (${result.status}):\n${output}`);
  return output;
}

/**
 * The template cannot rot: a resource generated into a copy of the tree compiles with it, passes the lint
 * and the dependency rules, and its generated specs pass.
 */
describe('npm run new:resource', () => {
  let tree: string;

  beforeAll(() => {
    tree = mkdtempSync(join(tmpdir(), 'scaffold-'));
    for (const path of TREE) {
      cpSync(join(ROOT, path), join(tree, path), {
        recursive: true,
        filter: (source) => !/(^|\/)(dist|node_modules|\.tmp|data)(\/|$)/.test(source.slice(ROOT.length)),
      });
    }
    symlinkSync(join(ROOT, 'node_modules'), join(tree, 'node_modules'));
    writeFileSync(join(tree, 'package.json'), readFileSync(join(ROOT, 'package.json')));
  });

  afterAll(() => rmSync(tree, { recursive: true, force: true }));

  it('generates a feature library and its line in the feature list', () => {
    const generated = run(tree, process.execPath, ['apps/scaffold/new-resource.js', 'share-link']);
    expect(generated).toContain('created libs/share-links/share-links.feature.ts');
    expect(generated).toContain('created libs/share-links/share-links.tour.ts');
    expect(readFileSync(join(tree, 'libs/composition/features.ts'), 'utf8')).toContain(
      '  shareLinksFeature,\n',
    );
  }, 60_000);

  it('compiles with the tree, and passes the lint and the dependency rules', () => {
    run(tree, join(BIN, 'tsc'), ['-p', 'tsconfig.json', '--noEmit']);
    run(tree, join(BIN, 'biome'), ['check', 'libs/share-links', 'libs/composition']);
    run(tree, join(BIN, 'depcruise'), [
      'apps',
      'libs',
      '--config',
      '.dependency-cruiser.js',
      // node_modules is a link to the project's: resolved through it, packages would not look like packages.
      '--preserve-symlinks',
      '--output-type',
      `plugin:${join(tree, 'test', 'layout', 'library-loops.js')}`,
    ]);
  }, 120_000);

  it('passes its own specs', () => {
    writeFileSync(
      join(tree, 'jest.scaffold.config.js'),
      `const unit = require('./jest.config.js').projects.find((p) => p.displayName === 'unit');
module.exports = { ...unit, rootDir: __dirname, testMatch: ['<rootDir>/libs/share-links/**/*.spec.ts'] };\n`,
    );
    const specs = run(tree, process.execPath, [
      join(BIN, 'jest'),
      '--config',
      'jest.scaffold.config.js',
      '--ci',
    ]);
    expect(specs).toMatch(/Tests: +\d+ passed, \d+ total/);
  }, 120_000);
});
