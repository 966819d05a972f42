/**
 * Setup of the e2e-mongo project: the same e2e suites a second time, each app keeping its views on
 * MongoDB-wire (a database of its own on MONGO_URL) and its events in the embedded log. Their titles
 * carry the MongoDB-wire marker, so the run counts them; without MONGO_URL they are skipped, saying so.
 */
import { MONGO_WIRE } from './describe-if';

const original = globalThis.describe;
if (process.env.MONGO_URL) process.env.TEST_VIEWS = 'mongo';
const run = process.env.MONGO_URL ? original : original.skip;
const marked = ((name: string, fn: () => void) => run(`${MONGO_WIRE} ${name}`, fn)) as jest.Describe;
globalThis.describe = Object.assign(marked, { each: run.each, only: original.only, skip: original.skip });
