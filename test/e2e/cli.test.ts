import { spawnSync } from 'node:child_process';
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
