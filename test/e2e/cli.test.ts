import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { useTestApp } from '../support/app-harness';
import { builtFile } from '../support/process-harness';

// Not in e2e-mongo: the CLI runs as a process of its own, which keeps its embedded views (childEnv gives it
// no MONGO_URL).

const CLI = builtFile('apps', 'cli', 'src', 'main.js');
const run = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });

describe('the command line', () => {
  it.each([['--help'], ['-h'], ['help']])('prints its usage for %s and exits 0', (flag) => {
    const result = run(flag);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^usage: npm run cli -- <command> \[options\]/);
    for (const command of ['user:create', 'org:create', 'token:create', 'rebuild', 'audit:tail'])
      expect(result.stdout).toContain(command);
  });

  it('prints its usage on standard error and exits 2 for an unknown command or option', () => {
    for (const args of [['nope'], ['--bogus'], []]) {
      const result = run(...args);
      expect(result.status).toBe(2);
      expect(result.stderr).toContain('usage: npm run cli');
    }
  });
});

describe('the command line without a server', () => {
  it('records a write, says that no server applied it yet, and returns', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cli-alone-'));
    try {
      const { DATA_DIR: _d, MONGO_URL: _m, ...env } = process.env;
      const result = spawnSync(
        process.execPath,
        [CLI, 'user:create', '--name', 'Early', '--email', 'early@example.com'],
        {
          env: { ...env, DATA_DIR: dataDir },
          encoding: 'utf8',
        },
      );
      expect(result.status).toBe(0);
      expect(result.stdout.trim()).toMatch(/^[\w-]{10,}$/);
      expect(result.stderr).toMatch(/no server applied it \(is one running\?\)/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('the command line beside a running server', () => {
  const current = useTestApp();
  // Not spawnSync: the server runs in this process, and must go on serving while the command waits on it.
  const cli = async (...args: string[]) => {
    const { DATA_DIR: _d, MONGO_URL: _m, ...env } = process.env;
    const { stdout } = await promisify(execFile)(process.execPath, [CLI, ...args], {
      env: { ...env, DATA_DIR: current().dataDir },
      encoding: 'utf8',
    });
    return stdout.trim();
  };

  it('returns from token:create and token:revoke once they are in force: the next request is answered by them', async () => {
    const app = current();
    const userId = await cli('user:create', '--name', 'Rotating', '--email', 'rotating@example.com');
    await cli('member:add', '--org', app.organizationId, '--user', userId, '--role', 'read');
    for (let round = 0; round < 5; round++) {
      const [tokenId, token] = (await cli('token:create', '--user', userId)).split(' ');
      expect((await app.http('GET', `/v1/orgs/${app.organizationId}`, { token })).status).toBe(200);
      await cli('token:revoke', '--user', userId, '--token-id', tokenId);
      expect((await app.http('GET', `/v1/orgs/${app.organizationId}`, { token })).status).toBe(401);
    }
  });

  it('returns from member:role once the role is in force', async () => {
    const app = current();
    const userId = await cli('user:create', '--name', 'Demoted', '--email', 'demoted@example.com');
    await cli('member:add', '--org', app.organizationId, '--user', userId, '--role', 'admin');
    const [, token] = (await cli('token:create', '--user', userId)).split(' ');
    const members = () => app.http('GET', `/v1/orgs/${app.organizationId}/audit-events?limit=1`, { token });
    expect((await members()).status).toBe(200);
    await cli('member:role', '--org', app.organizationId, '--user', userId, '--role', 'read');
    expect((await members()).status).toBe(403);
  });
});
