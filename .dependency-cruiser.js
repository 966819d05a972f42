/**
 * The layering rules of the code, checked by `npm test` (`npm run deps`). A feature library is
 * `libs/<feature>/` with `domain/`, `write/`, `read/`, `http/`; `libs/platform/` is the generic core;
 * `libs/documents/` is pure domain code shared by features (documents and content trees);
 * `libs/composition/` assembles features into apps. `npm run deps` reports through
 * `test/layout/library-loops.js`, which adds one rule these cannot express: no loops between feature libraries.
 */
const FEATURE = '^libs/(?!platform/|composition/)[^/]+/';
/** Pure code: every feature's `domain/`, and the `documents` library whole. */
const DOMAIN = '^libs/([^/]+/domain/|documents/)';
/**
 * Libraries of pure functions (no I/O, no framework, no global state) that domain code may use: the
 * Markdown parser and serializer family (GitBook's `$$` math included), an HTML parser (parse5, which reads
 * the HTML of GitBook's Markdown dialect into a tree: parsing only), YAML, heading slugs, three-way diffs,
 * word stemmers, PDF writing, an expression parser (jsep: adaptive content conditions, parsed only) and
 * JSON Schema checks (Ajv: a schema compiled into a check of a value).
 */
const PURE_LIBRARIES = [
  'node-diff3',
  'mdast-util-[^/]+',
  'micromark[^/]*',
  'parse5',
  'yaml',
  'github-slugger',
  '@orama/stemmers',
  'pdf-lib',
  'jsep',
  'ajv',
].join('|');

module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      comment:
        'domain/ and libs/documents/ hold pure functions: they import other domain code (and types), never Nest, storage or HTTP',
      severity: 'error',
      // Specs and their helpers (`*.testing.ts`) may use test tools (fast-check, a PDF reader); what
      // they test is held to the rule. A package resolves under `node_modules/`, or under its real path
      // (`../…/node_modules/`) when node_modules is a symbolic link.
      from: { path: DOMAIN, pathNot: '\\.(spec|testing)\\.ts$' },
      to: {
        pathNot: [
          DOMAIN,
          '^node:crypto$',
          '^crypto$',
          // Deflating is a pure function of its bytes, as hashing is: stored content objects use it.
          '^node:zlib$',
          '^zlib$',
          `(^|/)node_modules/(${PURE_LIBRARIES})(/|$)`,
          `^(${PURE_LIBRARIES})(/|$)`,
        ],
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'read-write-not-http',
      comment: "a feature's read/ and write/ do not depend on any feature's http/ (DTOs implement their input types)",
      severity: 'error',
      from: { path: `${FEATURE}(read|write)/` },
      to: { path: `${FEATURE}http/` },
    },
    {
      name: 'content-read-api',
      comment:
        'search, PDF exports and links read content through libs/content/content.api.ts, and import nothing else of libs/content (types neither)',
      severity: 'error',
      from: { path: '^libs/(search|pdf|links)/' },
      to: { path: '^libs/content/', pathNot: '^libs/content/content\\.api\\.ts$' },
    },
    {
      name: 'platform-is-generic',
      comment: 'libs/platform knows no feature and no composition',
      severity: 'error',
      from: { path: '^libs/platform/' },
      to: { path: '^libs/(?!platform/)' },
    },
    {
      name: 'features-do-not-compose',
      comment: 'only apps, the composition and tests know the list of features',
      severity: 'error',
      from: { path: FEATURE, pathNot: '\\.spec\\.ts$' },
      to: { path: '^libs/composition/' },
    },
    {
      name: 'no-circular',
      comment: 'modules do not import each other in a cycle (type-only imports aside)',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^dist/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
