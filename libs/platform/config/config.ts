import { randomBytes } from 'node:crypto';
import { isAbsolute, resolve } from 'node:path';
import { DEFAULT_MARKDOWN_LIMITS, type MarkdownLimits } from '../domain/markdown-limits';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
const LOG_LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  eventstoreUrl?: string;
  mongoUrl?: string;
  redisUrl?: string;
  bootstrapToken?: string;
  logLevel: LogLevel;
  /** Absolute base of the links in `urls` (defaults to http://HOST:PORT). */
  publicUrl: string;
  /** How often the safety-net sweep looks for deleted spaces due for purge. */
  purgeSweepMs: number;
  /** Days an invite link admits people after its creation; 0: until it is deleted. */
  inviteLinkMaxAgeDays: number;
  /** Hours the token a SAML sign-in issues works. */
  ssoSessionHours: number;
  /** Requests per caller (token, or address without one) and window on /v1; 0 turns limiting off. */
  rateLimitMax: number;
  rateLimitWindowMs: number;
  /** Largest request body accepted; larger ones answer 413. */
  bodyLimitBytes: number;
  /** Time a client has to send a whole request, headers and body (a stalled one is closed with 408). */
  requestTimeoutMs?: number;
  /** Connections open at once; more are refused (0: no cap). */
  maxConnections?: number;
  /**
   * How long a write's answer waits for the views to include it (VIEWS_WAIT_MS). A write that answers
   * no view (a merge, a 204) is answered as done after it anyway; one that answers a view then gets a
   * 503 saying it was stored.
   */
  viewsWaitMs?: number;
  /**
   * Proxies trusted to say who the caller is (`X-Forwarded-For`, for the rate limit's per-address
   * buckets and the logs): their addresses or CIDR ranges, or how many hops to trust. Off by default:
   * behind a proxy every anonymous caller then shares the proxy's bucket.
   */
  trustProxy?: string[] | number;
  /**
   * Standalone: commit the log and run the projector on a storage thread of their own (compiled code
   * only). Unset means on the serving thread, as the tests that build the app in memory do;
   * `loadConfig` turns it on unless STORAGE_THREAD=0.
   */
  storageThread?: boolean;
  /**
   * Signs the temporary download links handed out (PDF exports) and derives share links' keys. Every
   * process of a cluster needs the same one; unset, a standalone server keeps one it drew in its data
   * directory (`SIGNING_KEY_FILE`), and any other process draws its own (`signingKeyDrawn`).
   */
  signingKey: string;
  /** The signing key was drawn at start, not configured. */
  signingKeyDrawn?: boolean;
  /**
   * Private keys that sign the visitor claims a ping answers (PEM blocks, or a JWKS of private JWKs):
   * the first signs, all are published. Unset, a key kept in the data directory is used.
   */
  visitorClaimsKeys?: string;
  /** Conversions of page bodies (Markdown ↔ documents) on worker threads; defaults when absent. */
  conversions?: ConversionConfig;
  /** PDF exports: rendered on worker threads, kept a while; defaults when absent. */
  pdf?: PdfConfig;
}

/**
 * PDF exports are rendered on worker threads, each within a time and heap budget (an export past it
 * answers a 422), and their PDFs kept for a while after their render, then collected.
 */
export interface PdfConfig {
  /** PDF_THREADS: threads at most, started as renders come. */
  threads: number;
  /** PDF_TIMEOUT_MS: a render running longer ends its thread and is refused. */
  timeoutMs: number;
  /** PDF_HEAP_MB: a thread's old generation; a render needing more ends it and is refused. */
  heapMb: number;
  /** PDF_KEEP_MS: a rendered PDF older than this is collected (at least the hour a link works). */
  keepMs: number;
}

/** How long a PDF export's link works (GitBook's do an hour), and so the least a render is kept. */
export const PDF_LINK_LIFETIME_MS = 60 * 60 * 1000;

export const DEFAULT_PDF: PdfConfig = {
  threads: 2,
  timeoutMs: 30_000,
  heapMb: 512,
  // The link's hour and an hour of margin: a PDF rendered as its link was handed out outlives it.
  keepMs: 2 * PDF_LINK_LIFETIME_MS,
};

function pdfConfig(env: NodeJS.ProcessEnv): PdfConfig {
  const d = DEFAULT_PDF;
  return {
    threads: integer(env, 'PDF_THREADS', d.threads, 1, 64),
    timeoutMs: integer(env, 'PDF_TIMEOUT_MS', d.timeoutMs, 100, 600_000),
    heapMb: integer(env, 'PDF_HEAP_MB', d.heapMb, 32, 16_384),
    keepMs: integer(env, 'PDF_KEEP_MS', d.keepMs, PDF_LINK_LIFETIME_MS, 365 * 86_400_000),
  };
}

/**
 * Page bodies are converted on worker threads, each conversion within a time and heap budget, after a
 * pass over the Markdown that refuses shapes past the bounds of `MarkdownLimits` (markdown-limits.ts): past any of them
 * a request is refused with a 400 naming the field, and the serving thread is never held.
 */
export interface ConversionConfig extends MarkdownLimits {
  /** CONVERSION_THREADS: threads at most, started as conversions come. */
  threads: number;
  /** CONVERSION_TIMEOUT_MS: a conversion running longer ends its thread and is refused. */
  timeoutMs: number;
  /** CONVERSION_HEAP_MB: a thread's old generation; a conversion needing more ends it and is refused. */
  heapMb: number;
  /** CONVERSION_MAX_WAITING: conversions waiting for a thread at most; past it a request answers 503. */
  maxWaiting: number;
}

export const DEFAULT_CONVERSIONS: ConversionConfig = {
  threads: 2,
  timeoutMs: 30_000,
  heapMb: 512,
  maxWaiting: 256,
  ...DEFAULT_MARKDOWN_LIMITS,
};

function conversionConfig(env: NodeJS.ProcessEnv): ConversionConfig {
  const d = DEFAULT_CONVERSIONS;
  const bound = (name: string, fallback: number) => integer(env, name, fallback, 1, 100_000_000);
  return {
    threads: integer(env, 'CONVERSION_THREADS', d.threads, 1, 64),
    timeoutMs: integer(env, 'CONVERSION_TIMEOUT_MS', d.timeoutMs, 100, 600_000),
    heapMb: integer(env, 'CONVERSION_HEAP_MB', d.heapMb, 32, 16_384),
    maxWaiting: integer(env, 'CONVERSION_MAX_WAITING', d.maxWaiting, 1, 100_000),
    maxNesting: bound('MARKDOWN_MAX_NESTING', d.maxNesting),
    maxDelimiterRun: bound('MARKDOWN_MAX_DELIMITER_RUN', d.maxDelimiterRun),
    maxDelimiters: bound('MARKDOWN_MAX_DELIMITERS', d.maxDelimiters),
    maxHeadings: bound('MARKDOWN_MAX_HEADINGS', d.maxHeadings),
    maxLinks: bound('MARKDOWN_MAX_LINKS', d.maxLinks),
    maxContainerLines: bound('MARKDOWN_MAX_CONTAINER_LINES', d.maxContainerLines),
    maxFootnotes: bound('MARKDOWN_MAX_FOOTNOTES', d.maxFootnotes),
    maxNodes: bound('MARKDOWN_MAX_NODES', d.maxNodes),
  };
}

/** High enough for one client to load-test one process; lower it where clients are not trusted. */
export const DEFAULT_RATE_LIMIT_MAX = 1_000_000;
export const DEFAULT_RATE_LIMIT_WINDOW_MS = 60_000;
/**
 * Room for a batch of content changes with a few pages near the page limit (1 MiB of Markdown each,
 * MAX_BODY_BYTES), their objects stored in as many appends as they need.
 */
export const DEFAULT_BODY_LIMIT_BYTES = 8 * 1024 * 1024;
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_CONNECTIONS = 10_000;
export const DEFAULT_VIEWS_WAIT_MS = 30_000;

/** An address or a CIDR range, IPv4 or IPv6, as TRUST_PROXY lists them. */
const PROXY_ADDRESS = /^(?:\d{1,3}(?:\.\d{1,3}){3}|[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*)(?:\/\d{1,3})?$/;

/** TRUST_PROXY: unset (no proxy trusted), a hop count, or addresses and CIDR ranges separated by commas. */
function trustProxy(env: NodeJS.ProcessEnv): string[] | number | undefined {
  const raw = env.TRUST_PROXY?.trim();
  if (!raw) return undefined;
  if (/^\d+$/.test(raw)) return integer(env, 'TRUST_PROXY', 0, 1, 100);
  const list = raw.split(',').map((entry) => entry.trim());
  const bad = list.find((entry) => !PROXY_ADDRESS.test(entry));
  if (bad !== undefined)
    throw new ConfigError('TRUST_PROXY', `must be a hop count or addresses and CIDR ranges, got "${bad}"`);
  return list;
}

/** Invalid configuration stops start-up with a message naming the variable. */
export class ConfigError extends Error {
  constructor(variable: string, problem: string) {
    super(`Invalid configuration: ${variable} ${problem}`);
    this.name = 'ConfigError';
  }
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(name, `must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

function url(env: NodeJS.ProcessEnv, name: string, protocols: string[]): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, `must be a URL, got "${raw}"`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `must use ${protocols.join(' or ')}, got "${parsed.protocol}"`);
  }
  return raw;
}

/**
 * The connection string of a database server, checked only for its scheme: the official client parses
 * the rest when the store opens (it accepts what `new URL()` does not, such as several hosts:
 * `mongodb://h1,h2/db?replicaSet=rs0`, `esdb://a:2113,b:2113?tls=false`).
 */
function connectionString(env: NodeJS.ProcessEnv, name: string, schemes: string[]): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(raw)?.[1].toLowerCase();
  if (!scheme || !schemes.includes(scheme)) {
    const got = scheme ? `"${scheme}://"` : `"${raw}"`;
    throw new ConfigError(name, `must start with ${schemes.map((s) => `${s}://`).join(' or ')}, got ${got}`);
  }
  return raw;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = integer(env, 'PORT', 8080, 0, 65535);
  const host = env.HOST || '127.0.0.1';
  if (!/^[A-Za-z0-9.:-]+$/.test(host))
    throw new ConfigError('HOST', `must be a host name or address, got "${host}"`);
  const dataDir = env.DATA_DIR || './data';
  const logLevel = (env.LOG_LEVEL || 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel))
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`);
  const bootstrapToken = env.BOOTSTRAP_TOKEN || undefined;
  if (bootstrapToken !== undefined && (bootstrapToken.length < 24 || /\s/.test(bootstrapToken))) {
    throw new ConfigError('BOOTSTRAP_TOKEN', 'must be at least 24 characters with no white space');
  }
  const signingKey = env.SIGNING_KEY || randomBytes(32).toString('base64url');
  if (signingKey.length < 32) throw new ConfigError('SIGNING_KEY', 'must be at least 32 characters');
  const publicUrl = (url(env, 'PUBLIC_URL', ['http:', 'https:']) ?? `http://${host}:${port}`).replace(
    /\/$/,
    '',
  );
  return {
    port,
    host,
    dataDir: isAbsolute(dataDir) ? dataDir : resolve(dataDir),
    // The installed @eventstore/db-client takes these two; `kurrentdb://` needs the KurrentDB client.
    eventstoreUrl: connectionString(env, 'EVENTSTORE_URL', ['esdb', 'esdb+discover']),
    mongoUrl: connectionString(env, 'MONGO_URL', ['mongodb', 'mongodb+srv']),
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    bootstrapToken,
    logLevel,
    publicUrl,
    purgeSweepMs: integer(env, 'PURGE_SWEEP_MS', 60_000, 100, 86_400_000),
    inviteLinkMaxAgeDays: integer(env, 'INVITE_LINK_MAX_AGE_DAYS', 30, 0, 36_500),
    ssoSessionHours: integer(env, 'SSO_SESSION_HOURS', 12, 1, 24 * 90),
    rateLimitMax: integer(env, 'RATE_LIMIT_MAX', DEFAULT_RATE_LIMIT_MAX, 0, 1_000_000_000),
    // Whole seconds at least: the headers count in seconds.
    rateLimitWindowMs: integer(env, 'RATE_LIMIT_WINDOW_MS', DEFAULT_RATE_LIMIT_WINDOW_MS, 1000, 86_400_000),
    bodyLimitBytes: integer(env, 'BODY_LIMIT_BYTES', DEFAULT_BODY_LIMIT_BYTES, 1024, 1024 * 1024 * 1024),
    requestTimeoutMs: integer(env, 'REQUEST_TIMEOUT_MS', DEFAULT_REQUEST_TIMEOUT_MS, 1000, 3_600_000),
    maxConnections: integer(env, 'MAX_CONNECTIONS', DEFAULT_MAX_CONNECTIONS, 0, 10_000_000),
    viewsWaitMs: integer(env, 'VIEWS_WAIT_MS', DEFAULT_VIEWS_WAIT_MS, 100, 600_000),
    trustProxy: trustProxy(env),
    storageThread: integer(env, 'STORAGE_THREAD', 1, 0, 1) === 1,
    signingKey,
    ...(env.SIGNING_KEY ? {} : { signingKeyDrawn: true }),
    visitorClaimsKeys: env.VISITOR_CLAIMS_KEYS || undefined,
    conversions: conversionConfig(env),
    pdf: pdfConfig(env),
  };
}
