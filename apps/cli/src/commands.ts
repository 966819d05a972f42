import { randomUUID } from 'node:crypto';
import { rebuildOnThread } from '@app/composition/rebuild-thread';
import type { Storage } from '@app/composition/storage';
import { userDecider, userStream } from '@app/identity/domain/user.decider';
import { IdentityService } from '@app/identity/write/identity.commands';
import { OrganizationService } from '@app/organizations/write/organization.commands';
import type { Config } from '@app/platform/config/config';
import { CONFIG } from '@app/platform/config/config.module';
import { invalid, notFound } from '@app/platform/domain/decider';
import { isRole, ROLES, type Role } from '@app/platform/domain/roles';
import { Projector } from '@app/platform/projector/projector';
import { ViewsCheckpoint } from '@app/platform/rpc/views-checkpoint';
import type { CommandContext } from '@app/platform/write/command-context';
import { CommandRunner } from '@app/platform/write/command-runner';
import type { INestApplicationContext } from '@nestjs/common';
import { SingleBar } from 'cli-progress';
import { auditTail } from './audit-tail';

export type Options = Record<string, string | undefined>;
export type Out = (line: string) => void;

const scriptContext = (userId?: string): CommandContext => ({
  source: 'script',
  userId,
  correlationId: randomUUID(),
  causationId: null,
});

function required(options: Options, name: string): string {
  const value = options[name];
  if (!value) throw invalid(`--${name} is required`);
  return value;
}

function role(options: Options): Role {
  const value = required(options, 'role');
  if (!isRole(value)) throw invalid(`--role must be one of ${ROLES.join(', ')}`);
  return value;
}

/** Validates a user id against the log itself, so the CLI works whether or not the server is running. */
async function existingUser(app: INestApplicationContext, userId: string): Promise<void> {
  const { state } = await app.get(CommandRunner).load(userDecider, userStream(userId));
  if (state.status !== 'active') throw notFound(`user ${userId} not found`);
}

/** A write waits for the views this long while they move towards it, and this long in all. */
const IDLE_VIEWS_MS = 3_000;
const IN_FORCE_WAIT_MS = 30_000;

/**
 * Waits until the views include the write at `position` (the projector of a running server applied it),
 * so that a command returns once it is in force there: a revoked token or a lowered role refused by the
 * next request, a new token accepted. Views that do not move are projected by no server: the command
 * says so and returns, since a server applies the log before it serves.
 */
async function inForce(storage: Storage, position: number): Promise<void> {
  const views = new ViewsCheckpoint(storage.views);
  const started = Date.now();
  let seen = await views.current();
  let movedAt = started;
  while (seen < position) {
    const now = Date.now();
    if (now - movedAt >= IDLE_VIEWS_MS || now - started >= IN_FORCE_WAIT_MS) {
      process.stderr.write(
        `recorded at log position ${position}; the views are at ${seen} and no server applied it (is one running?): it is in force once one does\n`,
      );
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
    const next = await views.current();
    if (next > seen) movedAt = Date.now();
    seen = next;
  }
}

export const COMMANDS: Record<
  string,
  {
    usage: string;
    run: (app: INestApplicationContext, storage: Storage, o: Options, out: Out) => Promise<void>;
  }
> = {
  'user:create': {
    usage: 'user:create --name NAME --email EMAIL',
    async run(app, storage, o, out) {
      const { userId, position } = await app
        .get(IdentityService)
        .createUser({ displayName: required(o, 'name'), email: required(o, 'email') }, scriptContext());
      await inForce(storage, position);
      out(userId);
    },
  },
  'org:create': {
    usage: 'org:create --title TITLE --owner USER_ID   (the owner becomes admin)',
    async run(app, storage, o, out) {
      const owner = required(o, 'owner');
      await existingUser(app, owner);
      const { organizationId, position } = await app
        .get(OrganizationService)
        .create(required(o, 'title'), owner, scriptContext());
      await inForce(storage, position);
      out(organizationId);
    },
  },
  'member:add': {
    usage: `member:add --org ORG_ID --user USER_ID --role (${ROLES.join('|')})`,
    async run(app, storage, o, out) {
      const user = required(o, 'user');
      await existingUser(app, user);
      const { position } = await app
        .get(OrganizationService)
        .addMember(required(o, 'org'), user, role(o), scriptContext());
      await inForce(storage, position);
      out('ok');
    },
  },
  'member:role': {
    usage: `member:role --org ORG_ID --user USER_ID --role (${ROLES.join('|')})`,
    async run(app, storage, o, out) {
      const { position } = await app
        .get(OrganizationService)
        .changeRole(required(o, 'org'), required(o, 'user'), role(o), scriptContext());
      await inForce(storage, position);
      out('ok');
    },
  },
  'token:create': {
    usage: 'token:create --user USER_ID [--label LABEL]   (prints the token once)',
    async run(app, storage, o, out) {
      const user = required(o, 'user');
      await existingUser(app, user);
      const issued = await app.get(IdentityService).issueToken(user, o.label ?? 'cli', scriptContext(user));
      await inForce(storage, issued.position);
      out(`${issued.tokenId} ${issued.token}`);
    },
  },
  'token:revoke': {
    usage: 'token:revoke --user USER_ID --token-id TOKEN_ID',
    async run(app, storage, o, out) {
      const { position } = await app
        .get(IdentityService)
        .revokeToken(required(o, 'user'), required(o, 'token-id'), scriptContext());
      await inForce(storage, position);
      out('ok');
    },
  },
  'audit:tail': {
    usage: 'audit:tail [--org ORG_ID] [--from-position N]   (prints audit events as JSON lines, live)',
    run: (_app, storage, o, out) => auditTail(storage, o, out),
  },
  rebuild: {
    usage:
      'rebuild [--projection NAME]   (replays the log into fresh read models and switches over when caught up; the server keeps answering)',
    async run(app, storage, o, out) {
      const projector = app.get(Projector);
      const scope = projector.rebuildScope(o.projection).map((p) => p.name);
      if (o.projection) out(`rebuilding ${scope.join(', ')}; copying the other read models`);
      const head = await storage.events.headPosition();
      const bar = new SingleBar({
        format: 'rebuild [{bar}] {percentage}% | {value}/{total} | {rate} events/s | {eta_formatted} left',
        etaBuffer: 50,
      });
      const started = Date.now();
      const rate = (events: number) => Math.round(events / Math.max((Date.now() - started) / 1000, 0.001));
      bar.start(Math.max(head, 1), 0, { rate: 0 });
      const applied = await rebuildOnThread(
        app.get<symbol, Config>(CONFIG),
        { projection: o.projection },
        (position, total, events) => {
          if (total > bar.getTotal()) bar.setTotal(total);
          bar.update(position, { rate: rate(events) });
        },
      );
      bar.update(bar.getTotal());
      bar.stop();
      const seconds = (Date.now() - started) / 1000;
      out(`rebuilt from ${applied} events in ${seconds.toFixed(1)} s (${rate(applied)} events/s); now live`);
    },
  },
};
