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

/** `compiledScript`, or an error saying to build first (`what` names what runs it), when it is asked for. */
export function requiredScript(dir: string, name: string, what: string): () => string {
  return () => {
    const script = compiledScript(dir, name);
    if (!script) throw new Error(`${what} run compiled code: run \`npm run build\` first`);
    return script;
  };
}
