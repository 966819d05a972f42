import { randomUUID } from 'node:crypto';
import { basename, resolve } from 'node:path';
import { rebuildOnThread } from '@app/composition/rebuild-thread';
import type { Storage } from '@app/composition/storage';
import { ChangeRequestService } from '@app/content/write/change-request.commands';
import { userDecider, userStream } from '@app/identity/domain/user.decider';
import { IdentityService } from '@app/identity/write/identity.commands';
import { OrganizationService } from '@app/organizations/write/organization.commands';
import { MEMBERS } from '@app/platform/auth/access';
import type { Config } from '@app/platform/config/config';
import { CONFIG } from '@app/platform/config/config.module';
import { conflict, DomainError, invalid, notFound } from '@app/platform/domain/decider';
import { isRole, ROLES, type Role } from '@app/platform/domain/roles';
import { Projector } from '@app/platform/projector/projector';
import { ViewsCheckpoint } from '@app/platform/rpc/views-checkpoint';
import type { CommandContext } from '@app/platform/write/command-context';
import { CommandRunner } from '@app/platform/write/command-runner';
import { SPACES } from '@app/spaces/read/space.projection';
import type { INestApplicationContext } from '@nestjs/common';
import { SingleBar } from 'cli-progress';
import { auditTail } from './audit-tail';
import { importRepository, readRepository } from './gitsync-import';

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

/** Waits as `inForce` does, and fails when no server applied the write: what follows reads the views. */
async function applied(storage: Storage, position: number): Promise<void> {
  await inForce(storage, position);
  if ((await new ViewsCheckpoint(storage.views).current()) < position)
    throw conflict('import:gitsync needs a server applying the log (npm start): none did');
}

/** The author of an import: `--user`, or the longest-standing admin of the space's organization. */
async function author(app: INestApplicationContext, storage: Storage, space: string, user?: string) {
  if (user) {
    await existingUser(app, user);
    return user;
  }
  const doc = await storage.views.get(SPACES, space);
  if (!doc || doc.deleted) throw notFound(`space ${space} not found`);
  const { items } = await storage.views.find(MEMBERS, {
    where: { organization: doc.organization, role: 'admin' },
    orderBy: 'joinedAt',
    limit: 1,
  });
  if (!items[0]) throw notFound(`the organization of space ${space} has no admin: give --user`);
  return items[0].userId;
}

/**
 * `import:gitsync`: the repository read, then written as one change request of the space through the
 * API's own service (create, content in batches, merge), with a progress bar; then what could not be
 * converted, one line each.
 */
async function importGitSync(
  app: INestApplicationContext,
  storage: Storage,
  o: { dir: string; space: string; subject?: string; user?: string },
  out: Out,
): Promise<void> {
  const repo = await readRepository(o.dir).catch((error: Error) => {
    throw error instanceof DomainError ? error : invalid(error.message);
  });
  const service = app.get(ChangeRequestService);
  const userId = await author(app, storage, o.space, o.user);
  const viewer = { userId, tokenId: 'cli', correlationId: randomUUID() };
  const created = await service.create(
    o.space,
    { subject: o.subject ?? `Import of ${basename(resolve(o.dir))}` },
    viewer,
  );
  await applied(storage, created.position);
  const cr = created.changeRequestId;
  const bar = new SingleBar({ format: 'import [{bar}] {percentage}% | {value}/{total} changes' });
  bar.start(1, 0);
  let result: Awaited<ReturnType<typeof importRepository>>;
  try {
    result = await importRepository(
      repo,
      async (changes) => {
        const written = await service.updateContent(o.space, cr, { changes }, viewer);
        return {
          pages: new Map(
            written.outcomes.flatMap((c) => (c.object === 'created_page' && c.ref ? [[c.ref, c.page]] : [])),
          ),
          files: written.insertedFiles.map((f) => f.id),
        };
      },
      (done, total) => {
        bar.setTotal(Math.max(total, 1));
        bar.update(done);
      },
    );
  } finally {
    bar.stop();
  }
  const merged = await service.merge(o.space, cr, viewer);
  if (merged.result !== 'merge')
    throw conflict(`change request ${cr} meets conflicts with the space: it is left open, unmerged`);
  await inForce(storage, merged.position);
  out(
    `imported ${result.pages} pages and ${result.files} files into space ${o.space} in ${result.batches} batches: change request ${cr}, merged as revision ${merged.revision}`,
  );
  if (result.problems.length === 0) out('everything was converted');
  else {
    out(`not converted (${result.problems.length}):`);
    for (const line of result.problems) out(`  ${line}`);
  }
}

export const COMMANDS: Record<
  string,
  {
    usage: string;
    run: (
      app: INestApplicationContext,
      storage: Storage,
      o: Options,
      out: Out,
      args: string[],
    ) => Promise<void>;
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
  'import:gitsync': {
    usage:
      'import:gitsync DIR --space SPACE_ID [--subject TEXT] [--user USER_ID]   (a GitBook Git Sync repository into the space, as one merged change request; the author: --user, or an admin of the organization)',
    async run(app, storage, o, out, args) {
      const [dir, ...rest] = args;
      if (!dir || rest.length > 0) throw invalid('import:gitsync takes one folder: the Git Sync repository');
      await importGitSync(
        app,
        storage,
        { dir, space: required(o, 'space'), subject: o.subject, user: o.user },
        out,
      );
    },
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
