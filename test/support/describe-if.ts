/**
 * Runs a suite only when its server is configured; otherwise registers it as skipped and says why,
 * so a run without EVENTSTORE_URL or MONGO_URL reports plainly what it did not cover.
 */
export function describeIf(condition: boolean, reason: string): jest.Describe {
  if (condition) return describe;
  process.stdout.write(`\n[skipped] ${reason}\n`);
  return describe.skip;
}
