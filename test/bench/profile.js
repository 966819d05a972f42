/*
 * Summarizes a V8 .cpuprofile (node --cpu-prof): where the samples went, by function (self time), by
 * package or area (self time), the application's own functions by inclusive time, and the heaviest
 * stacks (the widest towers of the flame graph, as text).
 *
 *   node test/bench/profile.js FILE.cpuprofile [FROM_MS]   prints the summary as Markdown
 */
const { readFileSync } = require('node:fs');
const { relative } = require('node:path');
const { ROOT } = require('./lib');

const SPECIAL = new Set(['(idle)', '(program)', '(garbage collector)', '(root)']);

function where(frame) {
  if (!frame.url) return '';
  const url = frame.url.replace(/^file:\/\//, '');
  const rel = url.startsWith(ROOT) ? relative(ROOT, url) : url;
  return `${rel}:${frame.lineNumber + 1}`;
}

/** The package or area a frame belongs to. */
function categoryOf(frame) {
  const name = frame.functionName;
  if (SPECIAL.has(name)) return name;
  const url = frame.url.replace(/^file:\/\//, '');
  if (!url) return `native: ${name || '(anonymous)'}`;
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const parts = url.slice(nm + '/node_modules/'.length).split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  if (url.startsWith('node:')) return `node: ${url.slice(5).split('/').slice(0, 2).join('/')}`;
  const lib = /\/dist\/(libs|apps)\/([^/]+)\//.exec(url);
  if (lib) return `app: ${lib[1]}/${lib[2]}`;
  if (url.includes('/test/bench/')) return 'bench harness';
  return 'other';
}

/** `fromMs`: ignore samples taken earlier than this many ms after the profile started (start-up). */
function summarize(file, { fromMs = 0 } = {}) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map();
  const { samples, timeDeltas } = profile;
  let at = profile.startTime;
  const from = profile.startTime + fromMs * 1000;
  for (let i = 0; i < samples.length; i++) {
    at += timeDeltas[i];
    if (at < from) continue;
    // A sample's time is the gap to the next sample.
    const dt = timeDeltas[i + 1] ?? 0;
    self.set(samples[i], (self.get(samples[i]) ?? 0) + dt);
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0);

  const key = (frame) => `${frame.functionName || '(anonymous)'}\u0000${where(frame)}`;
  const bySelf = new Map();
  const byCategory = new Map();
  for (const [id, t] of self) {
    const frame = nodes.get(id).callFrame;
    bySelf.set(key(frame), (bySelf.get(key(frame)) ?? 0) + t);
    const cat = categoryOf(frame);
    byCategory.set(cat, (byCategory.get(cat) ?? 0) + t);
  }

  // Inclusive time of the application's functions: each sample counts once per distinct function on its stack.
  const inclusive = new Map();
  for (const [id, t] of self) {
    const seen = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const frame = nodes.get(at).callFrame;
      if (!/\/dist\/(libs|apps)\//.test(frame.url)) continue;
      const k = key(frame);
      if (seen.has(k)) continue;
      seen.add(k);
      inclusive.set(k, (inclusive.get(k) ?? 0) + t);
    }
  }

  const stacks = heaviestStacks(profile.nodes[0], nodes, self, total);

  const rank = (map, n) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, t]) => {
        const [name, loc] = k.split('\u0000');
        return { name, where: loc, ms: t / 1000, pct: total ? t / total : 0 };
      });
  const idle = byCategory.get('(idle)') ?? 0;
  return {
    file,
    fromMs,
    totalMs: total / 1000,
    idlePct: total ? idle / total : 0,
    gcPct: total ? (byCategory.get('(garbage collector)') ?? 0) / total : 0,
    topSelf: rank(bySelf, 15),
    categories: rank(byCategory, 12),
    appInclusive: rank(inclusive, 12),
    stacks,
  };
}

/** Stacks below this share of the samples are left out of the heaviest stacks. */
const STACK_MIN_SHARE = 0.03;
/** A frame whose heaviest callee carries this share of its time is printed on one line with it. */
const CHAIN_SHARE = 0.9;
const MAX_STACK_LINES = 40;

/**
 * The call tree from the root, keeping frames with at least STACK_MIN_SHARE of the samples: what a
 * flame graph shows as its widest towers. A chain of frames that pass (nearly) all their time to one
 * callee is printed as `a → b → c` (the middle of a long one elided), so each line is a point where
 * the time splits.
 */
function heaviestStacks(root, nodes, self, total) {
  const inclusive = new Map();
  const timeOf = (node) => {
    let t = inclusive.get(node.id);
    if (t !== undefined) return t;
    t = self.get(node.id) ?? 0;
    for (const c of node.children ?? []) t += timeOf(nodes.get(c));
    inclusive.set(node.id, t);
    return t;
  };
  const heavyChildren = (node) =>
    (node.children ?? [])
      .map((c) => nodes.get(c))
      .filter((c) => total && timeOf(c) / total >= STACK_MIN_SHARE)
      .sort((a, b) => timeOf(b) - timeOf(a));
  const label = (node) => {
    const name = node.callFrame.functionName || '(anonymous)';
    const loc = where(node.callFrame).replace(/^.*\/dist\//, '');
    return /^(libs|apps)\//.test(loc) ? `${name} (${loc})` : name;
  };
  const lines = [];
  const visit = (node, depth) => {
    if (lines.length >= MAX_STACK_LINES) return;
    const chain = [label(node)];
    let at = node;
    for (;;) {
      const [next] = heavyChildren(at);
      if (!next || timeOf(next) < CHAIN_SHARE * timeOf(at)) break;
      at = next;
      chain.push(label(at));
    }
    // Long chains (framework plumbing) keep their ends: where the time enters and where it goes.
    const shown = chain.length > 5 ? [...chain.slice(0, 2), '…', ...chain.slice(-2)] : chain;
    lines.push({ depth, pct: timeOf(node) / total, text: shown.join(' → ') });
    for (const child of heavyChildren(at)) visit(child, depth + 1);
  };
  for (const child of heavyChildren(root)) visit(child, 0);
  return lines;
}

const p = (x) => `${(x * 100).toFixed(1)}%`;

function toMarkdown(s) {
  const lines = [];
  lines.push(
    `Profile \`${s.file.startsWith(ROOT) ? relative(ROOT, s.file) : s.file}\`: ${(s.totalMs / 1000).toFixed(1)} s sampled on its thread` +
      `${s.fromMs ? ` (from ${(s.fromMs / 1000).toFixed(1)} s after start, when the measured work began)` : ''}, ` +
      `idle ${p(s.idlePct)}, garbage collector ${p(s.gcPct)}.`,
    '',
    '| self time, by package or area | share |',
    '| --- | ---: |',
    ...s.categories.map((c) => `| ${c.name} | ${p(c.pct)} |`),
    '',
    '| self time, by function | where | share |',
    '| --- | --- | ---: |',
    ...s.topSelf.map((f) => `| \`${f.name}\` | ${f.where || '(native)'} | ${p(f.pct)} |`),
    '',
    '| application functions, inclusive time | where | share |',
    '| --- | --- | ---: |',
    ...s.appInclusive.map((f) => `| \`${f.name}\` | ${f.where} | ${p(f.pct)} |`),
    '',
    `Heaviest stacks (share of the samples, callers above callees; stacks under ${p(STACK_MIN_SHARE)} left out):`,
    '',
    '```',
    ...s.stacks.map((l) => `${p(l.pct).padStart(6)}  ${'  '.repeat(l.depth)}${l.text}`),
    '```',
  );
  return lines.join('\n');
}

module.exports = { summarize, toMarkdown };

if (require.main === module) {
  const [file, fromMs] = process.argv.slice(2);
  process.stdout.write(`${toMarkdown(summarize(file, { fromMs: Number(fromMs ?? 0) }))}\n`);
}
