import { randomUUID } from 'node:crypto';
import { IdentityService } from '@app/identity/write/identity.commands';
import { OrganizationService } from '@app/organizations/write/organization.commands';
import { newEventId } from '@app/platform/eventstore/event-id';
import { type EventStore, WrongExpectedRevisionError } from '@app/platform/eventstore/event-store.port';
import type { CommandContext } from '@app/platform/write/command-context';
import { SCHEMA_VERSION } from '@app/platform/write/command-runner';

export interface BootstrapResult {
  userId: string;
  organizationId: string;
  token: string;
  /** False when BOOTSTRAP_TOKEN supplied the token, so it must not be printed. */
  generated: boolean;
  position: number;
}

/**
 * On first start with an empty log: a user, an organization it administers, and an API token for it.
 * The token is BOOTSTRAP_TOKEN when set; otherwise generated and shown once.
 */
export async function bootstrapIfEmpty(
  events: EventStore,
  identity: IdentityService,
  organizations: OrganizationService,
  bootstrapToken: string | undefined,
): Promise<BootstrapResult | null> {
  if ((await events.headPosition()) > 0) return null;
  const ctx: CommandContext = { source: 'system', correlationId: randomUUID(), causationId: null };
  if (!(await claimBootstrap(events, ctx))) return null;
  const { userId } = await identity.createUser(
    { displayName: 'Administrator', email: 'admin@localhost' },
    ctx,
  );
  const { organizationId } = await organizations.create('My organization', userId, { ...ctx, userId });
  const issued = await identity.issueToken(userId, 'bootstrap', { ...ctx, userId }, bootstrapToken);
  return {
    userId,
    organizationId,
    token: issued.token,
    generated: !bootstrapToken,
    position: issued.position,
  };
}

/** Several command replicas may start on an empty log at once: the first to create this stream bootstraps. */
async function claimBootstrap(events: EventStore, ctx: CommandContext): Promise<boolean> {
  try {
    await events.append(
      'system-bootstrap',
      [
        {
          id: newEventId(),
          type: 'SystemBootstrapped',
          data: {},
          metadata: {
            schemaVersion: SCHEMA_VERSION,
            occurredAt: new Date().toISOString(),
            actor: { source: 'system' },
            correlationId: ctx.correlationId,
            causationId: null,
          },
        },
      ],
      'no_stream',
    );
    return true;
  } catch (error) {
    if (error instanceof WrongExpectedRevisionError) return false;
    throw error;
  }
}

/** Shows a generated bootstrap token once; only its hash is stored. */
export function announceBootstrap(result: BootstrapResult | null): void {
  if (!result?.generated) return;
  process.stdout.write(
    `\nBootstrap API token for organization ${result.organizationId} (shown once, store it now):\n  ${result.token}\n\n`,
  );
}
