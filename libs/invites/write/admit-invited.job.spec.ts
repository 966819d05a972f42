import { USERS } from '@app/identity/read/identity.projection';
import { ManualClock } from '@app/platform/clock/clock';
import type { AggregateMessage } from '@app/platform/domain/aggregate';
import { DomainError } from '@app/platform/domain/decider';
import type { RecordedEvent } from '@app/platform/eventstore/event-store.port';
import type { JobHandler, JobQueue } from '@app/platform/jobs/job-queue.port';
import type { FindQuery, ReadStore } from '@app/platform/readstore/read-store.port';
import type { CommandBus } from '@nestjs/cqrs';
import {
  ADMIT_INVITED_ACCOUNT_JOB,
  ADMIT_INVITED_JOB,
  admitInvitedAccountJobId,
  admitInvitedJobId,
} from '../domain/member-invites.decider';
import { MEMBER_INVITES } from '../read/invite.projection';
import { AdmitInvitedAccounts, AdmitInvitedUsers } from './admit-invited.job';

const NOW = 1_700_000_000_000;
const clock = new ManualClock(() => NOW);

const recorded = (type: string, data: unknown): RecordedEvent => ({
  id: `${type}-event`,
  type,
  data,
  metadata: {
    schemaVersion: 1,
    occurredAt: new Date(NOW).toISOString(),
    actor: { source: 'api' },
    correlationId: 'request-1',
    causationId: null,
  },
  stream: 's',
  revision: 0,
  position: 1,
});

/** A queue that runs what is enqueued when asked, a read store of fixed rows, and a bus that records. */
function harness(rows: { users?: unknown[]; invites?: unknown[] }, refuse: Record<string, Error> = {}) {
  const handlers = new Map<string, JobHandler<unknown>>();
  const enqueued: { name: string; data: unknown; jobId: string }[] = [];
  const jobs = {
    register: (name: string, handler: JobHandler<unknown>) => handlers.set(name, handler),
    enqueue: async (name: string, data: unknown, options: { jobId: string }) => {
      enqueued.push({ name, data, jobId: options.jobId });
    },
  } as unknown as JobQueue;
  const queries: { collection: string; query: FindQuery }[] = [];
  const views = {
    find: async (collection: string, query: FindQuery) => {
      queries.push({ collection, query });
      const items = collection === USERS ? rows.users : collection === MEMBER_INVITES ? rows.invites : [];
      return { items: items ?? [] };
    },
  } as unknown as ReadStore;
  const sent: AggregateMessage<unknown, unknown>[] = [];
  const bus = {
    execute: async (message: AggregateMessage<unknown, unknown>) => {
      sent.push(message);
      if (refuse[message.id]) throw refuse[message.id];
    },
  } as unknown as CommandBus;
  const logged: string[] = [];
  const runEnqueued = async () => {
    for (const { name, data, jobId } of enqueued)
      await handlers.get(name)?.({ id: jobId, name, data, attempt: 1 }, { info: (m) => logged.push(m) });
  };
  return { jobs, views, bus, enqueued, queries, sent, logged, runEnqueued };
}

/** The job registered on a harness of `rows`, with the job of `event` enqueued (not run yet). */
async function started(
  Job: typeof AdmitInvitedUsers | typeof AdmitInvitedAccounts,
  event: RecordedEvent,
  rows: Parameters<typeof harness>[0],
  refuse: Record<string, Error> = {},
) {
  const h = harness(rows, refuse);
  const job = new Job(h.jobs, h.views, clock, h.bus);
  job.register();
  await job.react(event);
  return { ...h, job };
}

const admitted = (sent: AggregateMessage<unknown, unknown>[]) =>
  sent.map(({ id, command, ctx }) => ({ organization: id, command, ctx }));

describe('AdmitInvitedUsers (a user created with an invited email)', () => {
  const userCreated = recorded('UserCreated', { userId: 'u1', email: 'Ada@Example.com' });
  const twoInvites = {
    invites: [
      { organization: 'o1', role: 'edit' },
      { organization: 'o2', role: 'read' },
    ],
  };

  it('is one job per user created, admitting them to every inviting organization in turn, with its role', async () => {
    const h = await started(AdmitInvitedUsers, userCreated, {
      invites: [
        { organization: 'o1', email: 'ada@example.com', role: 'edit' },
        { organization: 'o2', email: 'ada@example.com', role: null },
        { organization: 'o3', email: 'ada@example.com', role: 'read', sso: true },
      ],
    });
    expect([h.job.name, h.job.handles, h.job.jobNames]).toEqual([
      'admit-invited-users',
      ['UserCreated'],
      [ADMIT_INVITED_JOB],
    ]);
    expect(h.enqueued.map(({ name, jobId }) => [name, jobId])).toEqual([
      [ADMIT_INVITED_JOB, admitInvitedJobId('UserCreated-event')],
    ]);
    await h.runEnqueued();
    expect(h.queries).toEqual([
      { collection: MEMBER_INVITES, query: { where: { email: 'ada@example.com' }, limit: 1000 } },
    ]);
    const ctx = { source: 'system', correlationId: 'request-1', causationId: 'UserCreated-event' };
    const command = { type: 'AdmitMember', userId: 'u1', invite: 'email', at: NOW };
    expect(admitted(h.sent)).toEqual([
      { organization: 'o1', command: { ...command, role: 'edit' }, ctx },
      { organization: 'o2', command: { ...command, role: null }, ctx },
      { organization: 'o3', command: { ...command, role: 'read', sso: true }, ctx },
    ]);
    expect(h.logged).toEqual(['admitted u1 to 3 inviting organizations']);
  });

  it('skips an organization gone meanwhile, and fails (to be retried) on any other error', async () => {
    const gone = await started(AdmitInvitedUsers, userCreated, twoInvites, {
      o1: new DomainError('not_found', 'no organization o1'),
    });
    await gone.runEnqueued();
    expect(gone.sent.map((m) => m.id)).toEqual(['o1', 'o2']);

    const failing = await started(AdmitInvitedUsers, userCreated, twoInvites, {
      o1: new DomainError('conflict', 'try again'),
    });
    await expect(failing.runEnqueued()).rejects.toThrow('try again');
    expect(failing.sent.map((m) => m.id)).toEqual(['o1']);
  });

  it('admits nobody and logs nothing for an email nobody invited', async () => {
    const h = await started(AdmitInvitedUsers, userCreated, { invites: [] });
    await h.runEnqueued();
    expect([h.sent, h.logged]).toEqual([[], []]);
  });
});

describe('AdmitInvitedAccounts (an invited email whose account exists)', () => {
  const invited = (data: Record<string, unknown>) =>
    recorded('MemberInvited', {
      organization: 'o1',
      email: 'ada@example.com',
      invitedAt: new Date(NOW).toISOString(),
      ...data,
    });
  const account = { users: [{ id: 'u1', email: 'ada@example.com' }] };

  it('is one job per invite, admitting the account with the invite role (null: a guest), sso as invited', async () => {
    const cases = [
      [{ role: 'create' }, { role: 'create' }],
      [{ role: null }, { role: null }],
      [
        { role: 'edit', sso: true },
        { role: 'edit', sso: true },
      ],
    ] as const;
    for (const [data, expected] of cases) {
      const h = await started(AdmitInvitedAccounts, invited(data), account);
      expect([h.job.name, h.job.handles, h.job.jobNames]).toEqual([
        'admit-invited-accounts',
        ['MemberInvited'],
        [ADMIT_INVITED_ACCOUNT_JOB],
      ]);
      expect(h.enqueued.map(({ name, jobId }) => [name, jobId])).toEqual([
        [ADMIT_INVITED_ACCOUNT_JOB, admitInvitedAccountJobId('MemberInvited-event')],
      ]);
      await h.runEnqueued();
      expect(h.queries).toEqual([
        { collection: USERS, query: { where: { email: 'ada@example.com' }, limit: 1 } },
      ]);
      expect(admitted(h.sent)).toEqual([
        {
          organization: 'o1',
          command: { type: 'AdmitMember', userId: 'u1', invite: 'email', at: NOW, ...expected },
          ctx: { source: 'system', correlationId: 'request-1', causationId: 'MemberInvited-event' },
        },
      ]);
      expect(h.logged).toEqual(['admitted the account of an invited email to o1']);
    }
  });

  it('admits nobody for an email without an account, and nothing fails for an organization gone', async () => {
    const none = await started(AdmitInvitedAccounts, invited({ role: 'read' }), { users: [] });
    await none.runEnqueued();
    expect([none.sent, none.logged]).toEqual([[], []]);

    const gone = await started(AdmitInvitedAccounts, invited({ role: 'read' }), account, {
      o1: new DomainError('not_found', 'no organization o1'),
    });
    await gone.runEnqueued();
    expect(gone.sent.map((m) => m.id)).toEqual(['o1']);
    expect(gone.logged).toEqual(['admitted the account of an invited email to o1']);
  });
});
