/** Jest runs TypeScript through swc; the ESM-only packages below are transformed too. */
const fs = require('node:fs');
const swcrc = JSON.parse(fs.readFileSync(`${__dirname}/.swcrc`, 'utf8'));
delete swcrc.$schema;
// The one path alias (`@app/<lib>/…` is `libs/<lib>/…`), as tsconfig.json and .swcrc declare it.
const moduleNameMapper = { '^@app/(.*)$': '<rootDir>/libs/$1' };
/** The e2e suites run a second time with the views (and, with them, the blobs) on MongoDB-wire. */
const MONGO_SUITES = [
  'endpoint-tour',
  'spaces',
  'collections',
  'organizations',
  'audit',
  'lifecycle',
  'access-cache',
  'rebuild',
  'change-requests',
  'search',
  'files',
  'teams',
  'members',
  'invites',
  'translations',
  'sso',
  'sso-sign-in',
  'permissions',
  'organization-search',
];
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
      testMatch: MONGO_SUITES.map((name) => `<rootDir>/test/e2e/${name}.test.ts`),
    },
    { ...common, displayName: 'cluster', testMatch: ['<rootDir>/test/cluster/**/*.test.ts'] },
    { ...common, displayName: 'reliability', testMatch: ['<rootDir>/test/reliability/**/*.test.ts'] },
  ],
};
