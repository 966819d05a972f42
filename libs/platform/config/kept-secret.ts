import { randomUUID } from 'node:crypto';
import { chmodSync, existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A secret an install without configuration draws once and keeps in its data directory (file `name`,
 * mode 600), so that restarts keep it: the file's text, drawn by `draw` the first time. Written aside,
 * then linked into place, which fails if the file exists: of two processes sharing the directory, the
 * second reads the first one's secret, and never a file still being written.
 */
export function keptSecret(dataDir: string, name: string, draw: () => string): string {
  const file = join(dataDir, name);
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    const drawn = `${file}.${randomUUID()}.tmp`;
    writeFileSync(drawn, draw(), { mode: 0o600, flush: true });
    try {
      linkSync(drawn, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      rmSync(drawn, { force: true });
    }
    chmodSync(file, 0o600);
  }
  return readFileSync(file, 'utf8');
}
