/*
 * An open-loop load: requests sent at a fixed mean rate (Poisson arrivals), whatever the answers do,
 * over at most `connections` kept-alive sockets. A request's latency counts from when it was due, so
 * time spent waiting for a free socket counts too (no coordinated omission). autocannon's own rate
 * option paces each connection on its own timer, which sends a burst of one request per connection
 * at once: with 100 connections that measures the burst, not the rate.
 */
const http = require('node:http');

function percentile(sorted, p) {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Runs `config` ({port, token, paths, rate, seconds, connections}) and answers load.js's result shape. */
function pacedLoad(config, pick) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: config.connections });
  const headers = config.token ? { authorization: `Bearer ${config.token}` } : {};
  const latencies = [];
  const statusCodes = {};
  let errors = 0;
  let timeouts = 0;
  let bytes = 0;
  let pending = 0;
  const start = performance.now();
  const end = start + config.seconds * 1000;

  return new Promise((resolve) => {
    let due = start;
    let sending = true;
    const finish = () => {
      if (sending || pending > 0) return;
      agent.destroy();
      const sorted = latencies.slice().sort((a, b) => a - b);
      const total = latencies.length + errors;
      const ok = Object.entries(statusCodes).reduce(
        (n, [code, count]) => n + (code[0] === '2' ? count : 0),
        0,
      );
      const seconds = config.seconds;
      resolve({
        mode: `${config.mode} at ${config.rate}/s`,
        seconds,
        connections: config.connections,
        total,
        ok,
        non2xx: latencies.length - ok,
        errors,
        timeouts,
        statusCodes,
        okPerSec: ok / seconds,
        reqPerSec: total / seconds,
        latency: {
          p50: percentile(sorted, 50),
          p90: percentile(sorted, 90),
          p99: percentile(sorted, 99),
          mean: sorted.reduce((a, b) => a + b, 0) / (sorted.length || 1),
          max: sorted.at(-1) ?? 0,
        },
        bytesPerSec: bytes / seconds,
      });
    };
    const send = (at) => {
      pending++;
      const req = http.request(
        { host: '127.0.0.1', port: config.port, path: pick(), agent, headers, timeout: 10_000 },
        (res) => {
          res.on('data', (chunk) => {
            bytes += chunk.length;
          });
          res.on('end', () => {
            latencies.push(performance.now() - at);
            statusCodes[res.statusCode] = (statusCodes[res.statusCode] ?? 0) + 1;
            pending--;
            finish();
          });
        },
      );
      req.on('timeout', () => {
        timeouts++;
        req.destroy(new Error('timeout'));
      });
      req.on('error', () => {
        errors++;
        pending--;
        finish();
      });
      req.end();
    };
    const tick = () => {
      const now = performance.now();
      // Every request due by now goes, each counted from when it was due.
      while (due <= now && due < end) {
        send(due);
        due += (-Math.log(1 - Math.random()) * 1000) / config.rate;
      }
      if (due >= end) {
        sending = false;
        finish();
        return;
      }
      setTimeout(tick, Math.max(0, due - performance.now()));
    };
    tick();
  });
}

module.exports = { pacedLoad };
