import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { AnyAggregate } from '@app/platform/domain/aggregate';
import type { Decider } from '@app/platform/domain/decider';
import { aggregatesOf } from '@app/platform/feature/feature';
import type { ServiceRole } from '@app/platform/feature/service-role';
import { AggregatesModule } from '@app/platform/write/aggregates.module';
import type { CommandContext } from '@app/platform/write/command-context';
import { CommandRunner } from '@app/platform/write/command-runner';
import { type DynamicModule, Global, Module, type Provider } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CommandBus, CqrsModule } from '@nestjs/cqrs';
import { FEATURES, featureModules } from './catalog';

const LIBS = join(__dirname, '..');
/** The key `@CommandHandler(Message)` records its message under (`COMMAND_HANDLER_METADATA` of @nestjs/cqrs). */
const HANDLED = '__commandHandler__';
/** Deciders no command is sent to: a space's content objects are appended as a change's prerequisite. */
const NOT_AGGREGATES = new Set(['contentObjectsDecider']);

function files(dir: string, suffix: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(suffix))
    .map((entry) => join(entry.parentPath, entry.name));
}

const isDecider = (value: unknown): value is Decider<unknown, never, unknown> =>
  typeof value === 'object' &&
  value !== null &&
  'initialState' in value &&
  typeof (value as Decider<unknown, never, unknown>).decide === 'function' &&
  typeof (value as Decider<unknown, never, unknown>).evolve === 'function';

/** The classes a module provides. */
const classesOf = (module: DynamicModule) =>
  (module.providers ?? []).flatMap((provider: Provider) =>
    typeof provider === 'function'
      ? [provider]
      : 'useClass' in provider && typeof provider.useClass === 'function'
        ? [provider.useClass]
        : [],
  );

/** For each message class, the handlers the modules of `role` register for it. */
async function handlersByMessage(role: ServiceRole): Promise<Map<unknown, string[]>> {
  const handlers = new Map<unknown, string[]>();
  for (const module of await Promise.all(featureModules(role))) {
    for (const cls of classesOf(module)) {
      const message = Reflect.getMetadata(HANDLED, cls);
      if (message) handlers.set(message, [...(handlers.get(message) ?? []), cls.name]);
    }
  }
  return handlers;
}

describe('the aggregates the manifests declare', () => {
  const aggregates = aggregatesOf(FEATURES);

  it('are each declared by exactly one manifest, that of the feature holding its decider', () => {
    const declaredBy = new Map<AnyAggregate, string[]>();
    for (const feature of FEATURES) {
      for (const aggregate of feature.aggregates ?? []) {
        declaredBy.set(aggregate, [...(declaredBy.get(aggregate) ?? []), feature.name]);
      }
    }
    expect([...declaredBy.values()].filter((names) => names.length > 1)).toEqual([]);
    expect(new Set(aggregates.map((a) => a.name)).size).toBe(aggregates.length);
    expect(new Set(aggregates.map((a) => a.Message)).size).toBe(aggregates.length);

    // Every decider of a feature's domain is one aggregate's, listed by that feature's manifest.
    const problems: string[] = [];
    let deciders = 0;
    for (const path of files(LIBS, '.decider.ts')) {
      const feature = relative(LIBS, path).split('/')[0];
      if (feature === 'platform') continue;
      for (const [name, value] of Object.entries(require(path) as Record<string, unknown>)) {
        if (!isDecider(value) || NOT_AGGREGATES.has(name)) continue;
        deciders += 1;
        const listedBy = aggregates
          .filter((a) => a.decider === value)
          .flatMap((a) => declaredBy.get(a) ?? []);
        if (listedBy.join() !== feature) problems.push(`${name} of ${feature} is listed by [${listedBy}]`);
      }
    }
    expect(problems).toEqual([]);
    expect(deciders).toBe(aggregates.length);
  });

  it.each<ServiceRole>(['standalone', 'command', 'worker', 'cli'])(
    'have exactly one command handler each, and no other message has one, in the %s role',
    async (role) => {
      const handlers = await handlersByMessage(role);
      const counts = aggregates.map((a) => [a.name, handlers.get(a.Message) ?? []]);
      expect(counts.filter(([, names]) => names.length !== 1)).toEqual([]);
      const others = [...handlers].filter(([message]) => !aggregates.some((a) => a.Message === message));
      expect(others.map(([, names]) => names)).toEqual([]);
    },
  );

  it.each<ServiceRole>(['gateway', 'query'])('have no handler in the %s role', async (role) => {
    expect([...(await handlersByMessage(role)).values()]).toEqual([]);
  });

  it('reach their decider and stream through the bus, a computed command as it is', async () => {
    const runs: { decider: unknown; stream: string; command: unknown; ctx: CommandContext }[] = [];
    const runner = {
      run: async (decider: unknown, stream: string, command: unknown, ctx: CommandContext) => {
        runs.push({ decider, stream, command, ctx });
        return { position: 1, revision: 0, state: null, events: [] };
      },
    };
    @Global()
    @Module({ providers: [{ provide: CommandRunner, useValue: runner }], exports: [CommandRunner] })
    class FakeRunner {}
    @Module({ imports: [CqrsModule.forRoot(), FakeRunner, AggregatesModule.forRole('command', FEATURES)] })
    class Writes {}
    const app = await NestFactory.createApplicationContext(Writes, { logger: false });
    try {
      const bus = app.get(CommandBus);
      const ctx: CommandContext = { source: 'system', correlationId: 'c1', causationId: null };
      for (const aggregate of aggregates) {
        const computed = async () => ({ type: 'Any' });
        await bus.execute(aggregate.message('id1', computed, ctx));
        expect(runs.pop()).toEqual({
          decider: aggregate.decider,
          stream: aggregate.stream('id1'),
          command: computed,
          ctx,
        });
      }
    } finally {
      await app.close();
    }
  });

  it('are written to only through their handler: no feature calls CommandRunner.run', () => {
    const calls = files(LIBS, '.ts')
      .filter((path) => !path.endsWith('.spec.ts') && !relative(LIBS, path).startsWith('platform/'))
      .filter((path) => /\.run\(\s*\w+Decider\b|\brunner\.run\(/.test(readFileSync(path, 'utf8')))
      .map((path) => relative(LIBS, path));
    expect(calls).toEqual([]);
  });
});
