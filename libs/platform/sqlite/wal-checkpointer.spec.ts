import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openWalDatabase } from './open-database';
import {
  checkpointElsewhere,
  checkpointInBackground,
  FALLBACK_AUTOCHECKPOINT_PAGES,
} from './wal-checkpointer';

async function eventually(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'wal-checkpointer-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A WAL file with a table `t (id, v)`. */
function openTable(path: string) {
  return openWalDatabase(path, {
    synchronous: 'NORMAL',
    schema: 'CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)',
  });
}

/** About 2,500 pages in one commit: past SQLite's default auto-checkpoint threshold, far below the raised one. */
function fill(db: ReturnType<typeof openWalDatabase>): void {
  const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
  db.transaction(() => {
    for (let i = 0; i < 10_000; i++) insert.run('x'.repeat(1000));
  })();
}

describe('checkpointInBackground', () => {
  it('moves committed pages into the database file while the writer only commits', async () => {
    const path = join(dir, 'data.sqlite');
    const db = openTable(path);
    const stop = checkpointInBackground(db, path, 'NORMAL');
    try {
      fill(db);
      expect(statSync(path).size).toBeLessThan(1_000_000);
      await eventually(() => statSync(path).size > 8_000_000);
      expect(db.prepare('SELECT count(*) FROM t').pluck().get()).toBe(10_000);
    } finally {
      await stop();
      db.close();
    }
    // The writer's connection was the last one open: closing it removed the WAL.
    expect(existsSync(`${path}-wal`)).toBe(false);
  });

  it('stops even when the file could not be opened by the checkpoint thread', async () => {
    const db = openWalDatabase(join(dir, 'a.sqlite'), { synchronous: 'NORMAL' });
    const stop = checkpointInBackground(db, join(dir, 'missing', 'b.sqlite'), 'NORMAL');
    await stop();
    db.close();
  });
});

describe('checkpointElsewhere', () => {
  it('leaves the file to the thread that checkpoints it, and never copies the WAL on a small commit', async () => {
    const path = join(dir, 'data.sqlite');
    const db = openTable(path);
    const stop = checkpointElsewhere(db);
    try {
      expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(FALLBACK_AUTOCHECKPOINT_PAGES);
      fill(db);
      // A later small commit would copy the WAL inline at SQLite's default threshold.
      db.prepare('INSERT INTO t (v) VALUES (?)').run('small');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(statSync(path).size).toBeLessThan(1_000_000);
    } finally {
      await stop();
      db.close();
    }
  });
});
