/**
 * Runs a suite only when its server is configured; otherwise registers it as skipped and says why,
 * so a run without EVENTSTORE_URL or MONGO_URL reports plainly what it did not cover.
 */
export function describeIf(condition: boolean, reason: string): jest.Describe {
  if (condition) return describe;
  process.stdout.write(`\n[skipped] ${reason}\n`);
  return describe.skip;
}

/** In the title of every suite that runs against MONGO_URL, so the run can count them. */
export const MONGO_WIRE = '[MongoDB-wire]';
