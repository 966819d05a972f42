/**
 * A dependency-cruiser reporter (`--output-type plugin:…`) that adds one rule to `.dependency-cruiser.js`:
 * no loops between feature libraries. dependency-cruiser finds cycles between modules, and between folders
 * at every depth (`scope: 'folder'`), but not between libraries: `libs/a/write` importing `libs/b/read` while
 * `libs/b/http` imports `libs/a/read` is no cycle of modules or of folders, yet `a` and `b` can no longer be
 * understood, tested or moved apart. This collapses the cruised modules to their library and reports every
 * loop, with the imports that make it; it also reports the configured rules' violations, so one cruise
 * checks both.
 */

/** A feature library's name from a module's path; the platform and the composition are not features. */
const LIBRARY = /^libs\/(?!platform\/|composition\/)([^/]+)\//;
/** Specs and their helpers are not part of a library's code (a spec may import what it checks against). */
const NOT_LIBRARY_CODE = /\.(spec|testing)\.ts$/;

/**
 * Type-only imports aside, as for cycles of modules: a projection reacting to another feature's events
 * names their types (the spaces' counters of change requests), which ties no code of the two together.
 */
const isTypeOnly = (dependency) => (dependency.dependencyTypes ?? []).includes('type-only');

/** Imports between feature libraries: `from` library to `to` library, with the module imports behind it. */
function libraryGraph(modules) {
  const graph = new Map();
  for (const module of modules) {
    const from = LIBRARY.exec(module.source)?.[1];
    if (!from || NOT_LIBRARY_CODE.test(module.source)) continue;
    for (const dependency of module.dependencies) {
      if (isTypeOnly(dependency)) continue;
      const to = LIBRARY.exec(dependency.resolved)?.[1];
      if (!to || to === from) continue;
      const edges = graph.get(from) ?? new Map();
      graph.set(from, edges);
      edges.set(to, [...(edges.get(to) ?? []), `${module.source} → ${dependency.resolved}`]);
    }
  }
  return graph;
}

/** The libraries that reach each other (strongly connected components of two or more, Tarjan's). */
function libraryLoops(modules) {
  const graph = libraryGraph(modules);
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const loops = [];
  let next = 0;
  const visit = (library) => {
    index.set(library, next);
    low.set(library, next++);
    stack.push(library);
    onStack.add(library);
    for (const to of graph.get(library)?.keys() ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(library, Math.min(low.get(library), low.get(to)));
      } else if (onStack.has(to)) {
        low.set(library, Math.min(low.get(library), index.get(to)));
      }
    }
    if (low.get(library) !== index.get(library)) return;
    const component = [];
    for (let member; member !== library; ) {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    }
    if (component.length > 1) {
      const members = new Set(component);
      const imports = component
        .sort()
        .flatMap((from) =>
          [...(graph.get(from) ?? [])].filter(([to]) => members.has(to)).flatMap(([, edges]) => edges),
        );
      loops.push({ libraries: component, imports });
    }
  };
  for (const library of [...graph.keys()].sort()) if (!index.has(library)) visit(library);
  return loops;
}

function report(result) {
  const lines = [];
  for (const violation of result.summary.violations) {
    const cycle = violation.cycle?.length
      ? ` (${violation.cycle.map((step) => step.name ?? step).join(' → ')})`
      : '';
    lines.push(
      `${violation.rule.severity} ${violation.rule.name}: ${violation.from} → ${violation.to}${cycle}`,
    );
  }
  const loops = libraryLoops(result.modules);
  for (const loop of loops) {
    lines.push(
      `error no-library-loops: ${loop.libraries.join(' ⇄ ')}`,
      ...loop.imports.map((i) => `    ${i}`),
    );
  }
  const errors = result.summary.error + loops.length;
  lines.push(
    errors === 0
      ? `✔ no dependency violations and no loops between feature libraries (${result.summary.totalCruised} modules)`
      : `✘ ${errors} dependency violation(s)`,
  );
  return { output: `${lines.join('\n')}\n`, exitCode: errors };
}

// A CommonJS module, so that Jest (its spec) and dependency-cruiser (`import()` of a plugin) both load it.
module.exports = report;
module.exports.libraryGraph = libraryGraph;
module.exports.libraryLoops = libraryLoops;
