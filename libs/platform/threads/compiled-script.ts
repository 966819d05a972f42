import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/** The repository's root when this module runs from source (libs/platform/threads). */
const SOURCE_ROOT = resolve(__dirname, '..', '..', '..');

/**
 * A worker script of this repository, `name` in the directory `dir` of the module asking: beside it when
 * that module runs from dist/, or, when it runs from source (a test runner compiling TypeScript in
 * memory), at the same place in the build in dist/. Undefined when neither exists.
 */
export function compiledScript(dir: string, name: string): string | undefined {
  const built = join(SOURCE_ROOT, 'dist', relative(SOURCE_ROOT, dir), name);
  return [join(dir, name), built].find((path) => existsSync(path));
}
