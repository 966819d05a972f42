/* Shared helpers of the benchmark harness (plain Node, no build step). */
const { spawn } = require('node:child_process');
const { closeSync, createWriteStream, openSync, readFileSync } = require('node:fs');
const http = require('node:http');
const { createServer } = require('node:net');

const ROOT = require('node:path').resolve(__dirname, '../..');

function log(message) {
  const t = new Date().toISOString().slice(11, 19);
  process.stdout.write(`[bench ${t}] ${message}\n`);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A free TCP port on loopback. */
function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** VmRSS and VmHWM of a process in bytes, or undefined once it is gone. */
function memoryOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
    return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
  } catch {
    return undefined;
  }
}

/** CPU time a process has used, in seconds: { user, system, total }. */
function cpuOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the command name.
    const user = Number(fields[11]) / 100;
    const system = Number(fields[12]) / 100;
    return { user, system, total: user + system };
  } catch {
    return undefined;
  }
}

function cpuSecondsOf(pid) {
  return cpuOf(pid)?.total;
}

/** Bytes a process caused to be written to storage, from /proc/<pid>/io. */
function writeBytesOf(pid) {
  try {
    return Number(/^write_bytes:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))?.[1] ?? 0);
  } catch {
    return undefined;
  }
}

/** Busy and total jiffies of the whole machine, from /proc/stat. */
function machineCpu() {
  const [, ...values] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  const n = values.map(Number);
  const total = n.slice(0, 8).reduce((a, b) => a + b, 0);
  const idle = n[3] + n[4];
  return { busy: (total - idle) / 100, total: total / 100 };
}

/**
 * Samples a process every `everyMs` until stopped: peak VmRSS, last VmHWM, CPU seconds used while
 * sampled (and the last absolute figures), bytes written to storage.
 */
function sampleProcess(pid, everyMs = 100) {
  let peakRss = 0;
  let hwm = 0;
  let cpu;
  let writeBytes;
  const first = { cpu: cpuOf(pid), writeBytes: writeBytesOf(pid) };
  const take = () => {
    const m = memoryOf(pid);
    if (!m) return;
    peakRss = Math.max(peakRss, m.rss);
    hwm = Math.max(hwm, m.hwm);
    cpu = cpuOf(pid) ?? cpu;
    writeBytes = writeBytesOf(pid) ?? writeBytes;
  };
  take();
  const timer = setInterval(take, everyMs);
  return {
    stop() {
      clearInterval(timer);
      take();
      return {
        peakRss,
        hwm,
        cpu,
        cpuSeconds: cpu && first.cpu ? cpu.total - first.cpu.total : undefined,
        writeBytes,
        writeBytesDelta:
          writeBytes !== undefined && first.writeBytes !== undefined
            ? writeBytes - first.writeBytes
            : undefined,
      };
    },
  };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });

/** A small HTTP client on a keep-alive agent: resolves { status, body (parsed when JSON), text }. */
function request(port, method, path, { token, body, timeoutMs = 30_000 } = {}) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const headers = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (payload) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = payload.length;
    }
    const req = http.request({ host: '127.0.0.1', port, method, path, headers, agent }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed;
        try {
          parsed = text ? JSON.parse(text) : undefined;
        } catch {
          parsed = undefined;
        }
        resolve({ status: res.statusCode, body: parsed, text, headers: res.headers });
      });
      res.on('error', reject);
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`${method} ${path} timed out`)));
    req.on('error', reject);
    if (payload) req.write(payload);
    req.end();
  });
}

/** Runs `fn` over `items` with at most `concurrency` at a time; results in order. */
async function mapLimit(items, concurrency, fn) {
  const out = new Array(items.length);
  let next = 0;
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= items.length) return;
      out[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return out;
}

/**
 * Starts a Node script as a child process with its output appended to `logFile`; resolves once it is
 * spawned. `exited` settles with the exit code (or signal).
 */
function startProcess(args, { env, logFile, cwd = ROOT, nodeArgs = [], command = process.execPath }) {
  // The file itself, not a pipe through this process: a server's access log must not wait on the
  // harness (which shares the cores) to drain it, as it would on a pipe that fills up.
  const out = openSync(logFile, 'a');
  const child = spawn(command, [...nodeArgs, ...args], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', out, out],
  });
  closeSync(out);
  const exited = new Promise((resolve) => {
    child.on('exit', (code, signal) => resolve({ code, signal }));
  });
  return { child, pid: child.pid, exited, startedAt: process.hrtime.bigint() };
}

/** Polls `GET path` until it answers 200; returns the milliseconds since `since` (hrtime). */
async function waitForHttp(port, path, { since, timeoutMs = 60_000, everyMs = 10, exited } = {}) {
  const start = since ?? process.hrtime.bigint();
  const deadline = Date.now() + timeoutMs;
  let gone = false;
  exited?.then(() => {
    gone = true;
  });
  for (;;) {
    if (gone) throw new Error(`process exited before ${path} answered`);
    try {
      const res = await request(port, 'GET', path, { timeoutMs: 2000 });
      if (res.status === 200) return { ms: Number(process.hrtime.bigint() - start) / 1e6, body: res.body };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${path} on port ${port} not ready after ${timeoutMs} ms`);
    await sleep(everyMs);
  }
}

/** Sends `signal` and waits for the process to end (SIGKILL after `graceMs`). */
async function stopProcess(proc, signal = 'SIGTERM', graceMs = 15_000) {
  if (proc.child.exitCode !== null || proc.child.signalCode !== null) return proc.exited;
  proc.child.kill(signal);
  const timer = setTimeout(() => proc.child.kill('SIGKILL'), graceMs);
  const result = await proc.exited;
  clearTimeout(timer);
  return result;
}

/** Runs a Node script to completion, collecting stdout; samples its memory while it runs. */
function runNode(
  args,
  { env, cwd = ROOT, nodeArgs = [], logFile, echo = false, timeoutMs = 30 * 60_000 } = {},
) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, ...args], {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const started = process.hrtime.bigint();
    const sampler = sampleProcess(child.pid, 50);
    const out = logFile ? createWriteStream(logFile, { flags: 'a' }) : undefined;
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => {
      stdout += c;
      out?.write(c);
    });
    child.stderr.on('data', (c) => {
      stderr += c;
      out?.write(c);
      if (echo) process.stdout.write(c);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      const sampled = sampler.stop();
      out?.end();
      resolve({
        code,
        signal,
        stdout,
        stderr,
        wallMs: Number(process.hrtime.bigint() - started) / 1e6,
        peakRss: sampled.peakRss,
        hwm: sampled.hwm,
        cpu: sampled.cpu,
        writeBytes: sampled.writeBytes,
      });
    });
  });
}

function median(values) {
  const sorted = values.filter((v) => typeof v === 'number' && !Number.isNaN(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The run whose `key` is the median (odd counts), so its other figures belong to the same run. */
function medianRun(runs, key) {
  const sorted = [...runs].sort((a, b) => a[key] - b[key]);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

/** `search` with each letter's case drawn at random: another URL for a search that ignores case. */
function mixedCase(search) {
  let out = '';
  for (const c of search) out += Math.random() < 0.5 ? c.toUpperCase() : c;
  return out;
}

const mib = (bytes) => bytes / (1024 * 1024);
const fmtInt = (n) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : 'n/a');
const fmt = (n, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
const pct = (ratio) => {
  if (!Number.isFinite(ratio)) return 'n/a';
  return `${(ratio * 100).toFixed(ratio < 0.1 ? 1 : 0)}%`;
};

/** A call to a bench server (`{port, token}`) that must answer `expected`; its parsed body. */
async function call(app, method, path, body, expected = 200, token = app.token) {
  const res = await request(app.port, method, path, { token, body, timeoutMs: 120_000 });
  if (res.status !== expected)
    throw new Error(`${method} ${path} answered ${res.status}: ${res.text.slice(0, 300)}`);
  return res.body;
}

/** Waits until the server has projected everything it wrote (its `/ready` reports the head). */
async function settled(app, timeoutMs = 120_000) {
  for (const started = Date.now(); Date.now() - started < timeoutMs; ) {
    const ready = await request(app.port, 'GET', '/ready');
    if (ready.body?.log && ready.body.log.projected >= ready.body.log.head) return;
    await sleep(100);
  }
  throw new Error(`the projector did not reach the head of the log in ${timeoutMs / 1000} s`);
}

module.exports = {
  ROOT,
  log,
  sleep,
  freePort,
  memoryOf,
  cpuOf,
  cpuSecondsOf,
  writeBytesOf,
  machineCpu,
  sampleProcess,
  request,
  call,
  settled,
  mapLimit,
  startProcess,
  waitForHttp,
  stopProcess,
  runNode,
  median,
  medianRun,
  mixedCase,
  mib,
  fmt,
  fmtInt,
  pct,
};
