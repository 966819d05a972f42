#!/usr/bin/env node
/**
 * `npm run new:resource -- NAME [--plural NAMES]`: a new feature library `libs/<names>/` from the
 * template beside this script (a resource with create, get, list, update and delete, its decider,
 * projection, audit subjects, route scope and test fixture), and its line in the feature list.
 * NAME is the singular in lower case (`widget`, `share-link`); the plural defaults to NAME + "s".
 */
const { mkdirSync, readdirSync, readFileSync, writeFileSync, existsSync, statSync } = require('node:fs');
const { join, relative, dirname } = require('node:path');
const { parseArgs } = require('node:util');
const { spawnSync } = require('node:child_process');

const ROOT = join(__dirname, '..', '..');
const TEMPLATE = join(__dirname, 'template');
const FEATURE_LIST = join(ROOT, 'libs', 'composition', 'features.ts');

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { plural: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
});
const USAGE =
  'usage: npm run new:resource -- NAME [--plural NAMES]   (NAME: singular, lower case, e.g. share-link)';
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const name = positionals[0];
if (!name || !/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(name)) {
  console.error(USAGE);
  process.exit(2);
}
const plural = values.plural ?? `${name}s`;

const words = (kebab) => kebab.split('-');
const pascal = (kebab) =>
  words(kebab)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');
const camel = (kebab) => pascal(kebab)[0].toLowerCase() + pascal(kebab).slice(1);
const constant = (kebab) => words(kebab).join('_').toUpperCase();
const snake = (kebab) => words(kebab).join('_');

const label = words(name).join(' ');
const labels = words(plural).join(' ');
const capital = (text) => text[0].toUpperCase() + text.slice(1);
// Strings (URL segments, names, types, messages) are marked in the template; identifiers are
// `Widget`-like tokens, longest first so that `Widgets` is not read as `Widget` + `s`.
const replacements = [
  // Module paths name kebab-case files.
  ['/widgets.', `/${plural}.`],
  ['/widget.', `/${name}.`],
  ['__names_snake__', snake(plural)],
  ['__name_snake__', snake(name)],
  ['__names__', plural],
  ['__name__', name],
  ['__Labels__', capital(labels)],
  ['__labels__', labels],
  ['__Label__', capital(label)],
  ['__label__', label],
  ['WIDGETS', constant(plural)],
  ['Widgets', pascal(plural)],
  ['widgets', camel(plural)],
  ['Widget', pascal(name)],
  ['widget', camel(name)],
];
const apply = (text) => replacements.reduce((out, [from, to]) => out.split(from).join(to), text);
/** File names are kebab case: `widgets.feature.ts` becomes `share-links.feature.ts`. */
const fileName = (path) =>
  path
    .split('widgets')
    .join(plural)
    .split('widget')
    .join(name)
    .replace(/\.tpl$/, '');

const libDir = join(ROOT, 'libs', plural);
if (existsSync(libDir)) {
  console.error(`libs/${plural} exists already`);
  process.exit(1);
}

function copy(dir) {
  for (const entry of readdirSync(dir)) {
    const source = join(dir, entry);
    if (statSync(source).isDirectory()) {
      copy(source);
      continue;
    }
    const target = join(libDir, fileName(relative(TEMPLATE, source)));
    const text = apply(readFileSync(source, 'utf8'));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, text);
    console.log(`created ${relative(ROOT, target)}`);
  }
}
copy(TEMPLATE);

// The one line in the feature list (and its import).
const feature = `${camel(plural)}Feature`;
let list = readFileSync(FEATURE_LIST, 'utf8');
list = list.replace(
  /(\nexport const FEATURES[^\n]*\n(?: {2}[^\n]*\n)*?)(\];)/,
  (_m, head, end) => `${head}  ${feature},\n${end}`,
);
list = `import { ${feature} } from '@app/${plural}/${plural}.feature';\n${list}`;
writeFileSync(FEATURE_LIST, list);
console.log(`added ${feature} to ${relative(ROOT, FEATURE_LIST)}`);
spawnSync(join(ROOT, 'node_modules', '.bin', 'biome'), ['check', '--write', libDir, FEATURE_LIST], {
  stdio: 'inherit',
});
console.log('next: fill in the decider, the DTOs and the presenter; npm test covers the new routes.');
