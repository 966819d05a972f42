import { auditDetails } from '@app/audit/domain/audit-entry';
import { AuditCatalog } from '@app/audit/domain/audited-events';
import { AuditPresenter } from '@app/audit/read/audit.presenter';
import { AuditStream } from '@app/audit/read/audit-stream';
import { FEATURES } from '@app/composition/features';
import type { Storage } from '@app/composition/storage';
import { loadConfig } from '@app/platform/config/config';
import { invalid } from '@app/platform/domain/decider';
import type { RecordedEvent } from '@app/platform/eventstore/event-store.port';
import { upcast } from '@app/platform/eventstore/upcasters';
import { Urls } from '@app/platform/http/urls';

export interface AuditTailOptions {
  /** Only this organization's audit events. */
  org?: string;
  /** First log position to print (inclusive); the current head when absent, so only new events. */
  'from-position'?: string;
  /** Base of `urls.location`; PUBLIC_URL (or its default) when absent. */
  'public-url'?: string;
}

const WARM_UP_BATCH = 5000;

function fromPosition(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw)) throw invalid('--from-position must be a log position (0 or more)');
  return Number(raw);
}

/** Resolves on `signal`, or on SIGINT/SIGTERM when none is given (the interactive use). */
function stopped(signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal) {
      if (signal.aborted) resolve();
      else signal.addEventListener('abort', () => resolve(), { once: true });
      return;
    }
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

/**
 * Prints audit events as they are appended, one JSON line each: GitBook's `AuditEventDetails` plus
 * the log `position` (to resume with `--from-position position+1`). Events go through the audit
 * projection in memory rather than the `audit_entries` view, so the tail needs no running projector.
 * The organization of an event can depend on any earlier one (a space's creation, a transfer), so
 * the log before the start is replayed silently first: exact, at the cost of one pass over the log.
 * Runs until `signal` aborts (or SIGINT/SIGTERM); resolves once the subscription is closed.
 */
export async function auditTail(
  storage: Pick<Storage, 'events'>,
  options: AuditTailOptions,
  out: (line: string) => void,
  signal?: AbortSignal,
): Promise<void> {
  const first = fromPosition(options['from-position']);
  const start = first === undefined ? await storage.events.headPosition() : Math.max(first - 1, 0);
  const publicUrl = options['public-url']?.replace(/\/$/, '');
  const presenter = new AuditPresenter(new Urls({ ...loadConfig(), ...(publicUrl ? { publicUrl } : {}) }));
  const stream = new AuditStream(new AuditCatalog(FEATURES));
  for (let after = 0; after < start; ) {
    const batch = (await storage.events.readAll(after, WARM_UP_BATCH)).filter((e) => e.position <= start);
    if (batch.length === 0) break;
    for (const event of batch) await stream.push(event);
    after = batch[batch.length - 1].position;
  }
  // A batch that fails (say, `out` throws) is delivered again: skip what was already printed.
  let printed = start;
  const print = async (batch: RecordedEvent[]) => {
    for (const event of batch) {
      if (event.position <= printed) continue;
      for (const entry of await stream.push(event)) {
        if (options.org !== undefined && entry.organization !== options.org) continue;
        out(
          JSON.stringify({
            ...presenter.details(entry, auditDetails(upcast(event))),
            position: event.position,
          }),
        );
      }
      printed = event.position;
    }
  };
  const subscription = storage.events.subscribeAll(start, print);
  try {
    await stopped(signal);
  } finally {
    await subscription.close();
  }
}
