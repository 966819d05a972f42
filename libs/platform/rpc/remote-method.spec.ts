import { BadRequestException, type DynamicModule, Injectable, type Provider } from '@nestjs/common';
import { Access } from '../auth/access';
import { featureModule } from './feature-module';
import { ConsistencyFloor, remoteService } from './remote';
import { arg, checkArgs, Remote, remoteMethods } from './remote-method';
import type { RpcClient } from './rpc.client';
import { ConsistencyProbe } from './rpc.controller';
import type { RpcCall, RpcKind } from './rpc.protocol';

@Injectable()
class Notes {
  @Remote(arg.id('noteId'), arg.object<{ text?: string }>('body'), arg.optional(arg.int('ifMatch')))
  update(noteId: string, body: { text?: string }, ifMatch?: number) {
    return { noteId, body, ifMatch };
  }

  /** On the class, not on the allowlist. */
  purgeAll() {
    return 'purged';
  }
}

@Injectable()
class Unmarked {
  run() {
    return 'ran';
  }
}

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(BadRequestException);
    return (error as Error).message;
  }
  throw new Error('accepted');
}

const tokens = (module: DynamicModule) =>
  (module.providers ?? []).map((p: Provider) => (typeof p === 'function' ? p : p.provide));

describe('the allowlist of the internal transport (@Remote)', () => {
  const specs = [...(remoteMethods(Notes).get('update') ?? [])];

  it('lists the marked methods only', () => {
    expect([...remoteMethods(Notes).keys()]).toEqual(['update']);
    expect([...remoteMethods(Access).keys()].sort()).toEqual(['authenticateHash', 'authorize']);
    expect([...remoteMethods(ConsistencyProbe).keys()]).toEqual(['reached']);
    expect(remoteMethods(Unmarked).size).toBe(0);
  });

  it('passes arguments of the declared shapes, optional ones absent or null as undefined', () => {
    expect(checkArgs('Notes.update', specs, ['n1', { text: 'x' }, 3])).toEqual(['n1', { text: 'x' }, 3]);
    expect(checkArgs('Notes.update', specs, ['n1', {}, null])).toEqual(['n1', {}, undefined]);
    expect(checkArgs('Notes.update', specs, ['n1', {}])).toEqual(['n1', {}, undefined]);
  });

  it('refuses other arguments with a 400 naming the argument', () => {
    expect(refusal(() => checkArgs('Notes.update', specs, ['n 1', {}]))).toMatch(
      /^Notes\.update: argument noteId /,
    );
    expect(refusal(() => checkArgs('Notes.update', specs, ['n1']))).toBe(
      'Notes.update: argument body is missing',
    );
    expect(refusal(() => checkArgs('Notes.update', specs, ['n1', null]))).toMatch(/argument body is missing/);
    expect(refusal(() => checkArgs('Notes.update', specs, ['n1', ['x']]))).toMatch(/argument body must be/);
    expect(refusal(() => checkArgs('Notes.update', specs, ['n1', {}, 1.5]))).toMatch(/argument ifMatch /);
    expect(refusal(() => checkArgs('Notes.update', specs, ['n1', {}, 1, 2]))).toMatch(
      /takes at most 3 arguments/,
    );
    expect(refusal(() => checkArgs('Notes.update', specs, { 0: 'n1' }))).toMatch(/args must be an array/);
  });

  it('passes a viewer of its string fields, with or without the organization its token is limited to', () => {
    const viewer = [arg.viewer()];
    const base = { userId: 'u1', tokenId: 't1', correlationId: 'c1' };
    expect(checkArgs('Notes.view', viewer, [base])).toEqual([base]);
    expect(checkArgs('Notes.view', viewer, [{ ...base, organization: 'o1' }])).toEqual([
      { ...base, organization: 'o1' },
    ]);
    for (const bad of [
      { ...base, organization: 'not an id!' },
      { ...base, admin: true },
      { userId: 'u1', tokenId: 't1' },
      { ...base, userId: '' },
    ]) {
      expect(refusal(() => checkArgs('Notes.view', viewer, [bad]))).toMatch(/viewer/);
    }
  });

  it("makes the gateway's stand-in offer exactly the allowlisted methods, as calls to a replica", async () => {
    const calls: [RpcKind, RpcCall][] = [];
    const client = {
      call: async (kind: RpcKind, call: RpcCall) => {
        calls.push([kind, call]);
        return 'answered';
      },
    } as unknown as RpcClient;
    const stand = remoteService(
      Access,
      'query',
      client,
      new ConsistencyFloor(),
      () => undefined,
    ) as unknown as Record<string, unknown>;
    expect(Object.keys(stand).sort()).toEqual(['authenticateHash', 'authorize']);
    for (const name of ['roleIn', 'require', 'member', 'knownIdentity', 'constructor']) {
      expect(Object.hasOwn(stand, name)).toBe(false);
    }
    await expect((stand.authenticateHash as (hash: string) => Promise<unknown>)('ab')).resolves.toBe(
      'answered',
    );
    expect(calls).toEqual([
      ['query', { service: 'Access', method: 'authenticateHash', args: ['ab'], minPosition: 0 }],
    ]);
  });

  it('exposes the services marking methods @Remote, each to its role only, and stands in for them in the gateway', () => {
    const feature = { commands: [Notes, Unmarked], queries: [Unmarked] };
    expect(tokens(featureModule(Notes, 'command', feature))).toContain('rpc:Notes');
    expect(tokens(featureModule(Notes, 'query', feature))).not.toContain('rpc:Notes');
    expect(tokens(featureModule(Notes, 'standalone', feature))).not.toContain('rpc:Notes');
    expect(tokens(featureModule(Notes, 'gateway', feature))).toEqual([Notes]);
    for (const role of ['command', 'query'] as const) {
      expect(tokens(featureModule(Notes, role, feature))).not.toContain('rpc:Unmarked');
    }
  });

  it('refuses a service marking methods @Remote among both the commands and the queries', () => {
    const both = { commands: [Notes], queries: [Notes] };
    for (const role of ['command', 'gateway', 'standalone'] as const) {
      expect(() => featureModule(Notes, role, both)).toThrow(/Notes marks methods @Remote .*both/);
    }
  });
});
