/** The marker in the titles of suites run against MONGO_URL (see describe-if.ts). */
const MONGO_WIRE = '[MongoDB-wire]';

/**
 * Prints plain closing lines that any CI can read: "Tests: N passed, N failed, N skipped", and how many
 * of them ran against a MongoDB-wire server.
 */
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const mongo = { passed: 0, failed: 0 };
    for (const file of results.testResults)
      for (const test of file.testResults)
        if (test.fullName.includes(MONGO_WIRE) && test.status in mongo) mongo[test.status] += 1;
    process.stdout.write(
      `\nTests: ${results.numPassedTests} passed, ${results.numFailedTests} failed, ${skipped} skipped\n` +
        `Against MongoDB-wire (${process.env.MONGO_URL ? 'MONGO_URL' : 'not run: MONGO_URL is not set'}): ` +
        `${mongo.passed} passed, ${mongo.failed} failed\n`,
    );
  }
}
module.exports = SummaryReporter;
