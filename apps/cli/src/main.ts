import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { openStorage } from '@app/composition/storage';
import { SystemClock } from '@app/platform/clock/clock';
import { ConfigError, loadConfig } from '@app/platform/config/config';
import { DomainError } from '@app/platform/domain/decider';
import { NestFactory } from '@nestjs/core';
import { CliModule } from './cli.module';
import { COMMANDS } from './commands';

function usage(): string {
  return [
    'usage: npm run cli -- <command> [options]      (--help: this text)',
    ...Object.values(COMMANDS).map((c) => `  ${c.usage}`),
  ].join('\n');
}

/** Administration against the same data directory or servers as the server (same environment variables). */
async function main(argv: string[]): Promise<number> {
  const names = [
    'name',
    'email',
    'title',
    'owner',
    'org',
    'user',
    'role',
    'label',
    'token-id',
    'projection',
    'from-position',
    'public-url',
    'space',
    'subject',
  ];
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      ...Object.fromEntries(names.map((n) => [n, { type: 'string' as const }])),
      help: { type: 'boolean' as const, short: 'h' },
    },
  });
  if (values.help || positionals[0] === 'help') {
    process.stdout.write(`${usage()}\n`);
    return 0;
  }
  const command = COMMANDS[positionals[0] ?? ''];
  if (!command) {
    process.stderr.write(`${usage()}\n`);
    return 2;
  }
  const config = loadConfig();
  const clock = new SystemClock();
  const storage = await openStorage(config, clock);
  const app = await NestFactory.createApplicationContext(CliModule.forRoot(config, clock, storage), {
    logger: ['error'],
  });
  try {
    const options = Object.fromEntries(
      Object.entries(values).map(([k, v]) => [k, typeof v === 'string' ? v : undefined]),
    );
    await command.run(
      app,
      storage,
      options,
      (line) => process.stdout.write(`${line}\n`),
      positionals.slice(1),
    );
    return 0;
  } finally {
    await app.close();
    await storage.events.close();
    await storage.views.close();
    await storage.jobs.close();
    await storage.blobs.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (String((error as { code?: string })?.code).startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`${(error as Error).message}\n${usage()}\n`);
      process.exit(2);
    }
    const known = error instanceof DomainError || error instanceof ConfigError;
    process.stderr.write(`${known ? (error as Error).message : String((error as Error)?.stack ?? error)}\n`);
    process.exit(1);
  },
);
