import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from './process-harness';

/** What `npm run build` compiles to dist/ (package.json), and the options it compiles them with. */
const SOURCE_DIRS = ['apps', 'libs'];
const SWCRC = join(ROOT, '.swcrc');

function mtime(path: string): number | undefined {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

/**
 * The sources (TypeScript under apps/ and libs/, declarations aside) whose compiled file in dist/ is
 * missing or older than they are, or all of them when .swcrc changed since: what a process or thread of
 * the tests (the standalone app's storage thread, the cluster's services, the CLI) would run stale.
 */
export function staleSources(root = ROOT): string[] {
  const stale: string[] = [];
  let oldestBuilt = Number.POSITIVE_INFINITY;
  for (const dir of SOURCE_DIRS) {
    for (const entry of readdirSync(join(root, dir), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name.endsWith('.d.ts')) continue;
      const source = join(entry.parentPath, entry.name);
      const path = relative(root, source);
      const built = mtime(join(root, 'dist', path.replace(/\.ts$/, '.js')));
      if (built === undefined || built < (mtime(source) ?? 0)) stale.push(path);
      else oldestBuilt = Math.min(oldestBuilt, built);
    }
  }
  if (stale.length === 0 && (mtime(SWCRC) ?? 0) > oldestBuilt) return ['.swcrc'];
  return stale;
}

/**
 * Compiles apps/ and libs/ to dist/ (`npm run build`) when a source is newer than its build, so that
 * what runs from dist/ is what the suites' own code (compiled by Jest from the sources) is; `npm test`
 * builds first, and then this costs a walk of the file dates. Fails when the build leaves a file stale.
 */
export function ensureFreshBuild(): void {
  const stale = staleSources();
  if (stale.length === 0) return;
  const started = Date.now();
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
  const left = staleSources();
  if (left.length > 0) {
    throw new Error(`dist/ is still older than ${left.slice(0, 5).join(', ')} after \`npm run build\``);
  }
  const example = stale.length === 1 ? stale[0] : `${stale[0]} and ${stale.length - 1} more`;
  process.stdout.write(`\nBuilt dist/ (${example} newer than its build) in ${Date.now() - started} ms\n`);
}
