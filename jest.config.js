/** Jest runs TypeScript through swc; the ESM-only packages below are transformed too. */
const fs = require('node:fs');
const swcrc = JSON.parse(fs.readFileSync(`${__dirname}/.swcrc`, 'utf8'));
delete swcrc.$schema;
// The one path alias (`@app/<lib>/…` is `libs/<lib>/…`), as tsconfig.json and .swcrc declare it.
const moduleNameMapper = { '^@app/(.*)$': '<rootDir>/libs/$1' };
/**
 * The e2e suites run a second time with the views (and, with them, the blobs) on MongoDB-wire: every suite
 * of test/e2e, but one that says in itself why it does not, on a line of its own:
 * `// Not in e2e-mongo: <why>`; such a line in another form fails the configuration.
 */
const E2E = `${__dirname}/test/e2e`;
const NOT_ON_MONGO = /^\/\/ Not in e2e-mongo: \S/m;
const MONGO_SUITES = fs
  .readdirSync(E2E, { recursive: true })
  .filter((path) => path.endsWith('.test.ts'))
  .sort()
  .filter((path) => {
    const source = fs.readFileSync(`${E2E}/${path}`, 'utf8');
    const malformed = source.split('\n').find((line) => /not in e2e-mongo/i.test(line) && !NOT_ON_MONGO.test(line));
    if (malformed) {
      throw new Error(`test/e2e/${path}: "${malformed.trim()}": say \`// Not in e2e-mongo: <why>\` or nothing`);
    }
    return !NOT_ON_MONGO.test(source);
  });
const transform = { '^.+\\.(t|j|mj)s$': ['@swc/jest', { ...swcrc, swcrc: false, module: { type: 'commonjs' } }] };
/** ESM-only packages Jest must compile to CommonJS (Node >= 24.9 would not need it): @nestjs and co., and the
 * unified family of the Markdown conversion (libs/documents/document) with its dependencies. */
const ESM_ONLY = [
  '@nestjs|cookie|@fastify|fastify-plugin|light-my-request|@gitbook',
  'mdast-util-[^/]+|micromark[^/]*|unist-util-[^/]+|decode-named-character-reference|character-entities',
  'ccount|devlop|escape-string-regexp|fault|github-slugger|longest-streak|markdown-table|zwitch',
].join('|');
const common = {
  transform,
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_ONLY})/)`],
  moduleNameMapper,
  testEnvironment: 'node',
};
module.exports = {
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  testTimeout: 30000,
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/libs/**/*.spec.ts', '<rootDir>/apps/**/*.spec.ts', '<rootDir>/test/layout/*.spec.ts'] },
    { ...common, displayName: 'contract', testMatch: ['<rootDir>/test/contract/**/*.test.ts'] },
    { ...common, displayName: 'e2e', testMatch: ['<rootDir>/test/e2e/**/*.test.ts'] },
    // The suites of every read model and the rebuild again, with the views on MongoDB-wire (MONGO_URL).
    {
      ...common,
      displayName: 'e2e-mongo',
      setupFilesAfterEnv: ['<rootDir>/test/support/views-on-mongo.ts'],
      testMatch: MONGO_SUITES.map((path) => `<rootDir>/test/e2e/${path}`),
    },
    { ...common, displayName: 'cluster', testMatch: ['<rootDir>/test/cluster/**/*.test.ts'] },
    { ...common, displayName: 'reliability', testMatch: ['<rootDir>/test/reliability/**/*.test.ts'] },
    // GitBook's site renderer against the app: run when RENDERER_DIR holds a build (test/renderer/README.md).
    { ...common, displayName: 'renderer', testMatch: ['<rootDir>/test/renderer/**/*.test.ts'] },
  ],
};
