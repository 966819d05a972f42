import { ConfigError } from '@app/platform/config/config';

export interface ClusterConfig {
  /** Shared secret on calls between the gateway and the command and query services. */
  internalToken: string;
  commandUrls: string[];
  queryUrls: string[];
  /** How long a read waits for the views to include the caller's last write before a 503. */
  consistencyTimeoutMs: number;
}

function urls(env: NodeJS.ProcessEnv, name: string, required: boolean): string[] {
  const raw = env[name] ?? '';
  const list = raw
    .split(',')
    .map((u) => u.trim().replace(/\/$/, ''))
    .filter(Boolean);
  if (required && list.length === 0)
    throw new ConfigError(name, 'must list at least one http:// URL, comma-separated');
  for (const url of list) {
    if (!/^https?:\/\/[^\s/]+$/.test(url)) throw new ConfigError(name, `has an invalid URL "${url}"`);
  }
  return list;
}

export function loadClusterConfig(env: NodeJS.ProcessEnv, options: { gateway: boolean }): ClusterConfig {
  const internalToken = env.INTERNAL_TOKEN ?? '';
  if (internalToken.length < 24 || /\s/.test(internalToken)) {
    throw new ConfigError(
      'INTERNAL_TOKEN',
      'must be set to a secret of at least 24 characters shared by all services',
    );
  }
  const timeout = Number(env.CONSISTENCY_TIMEOUT_MS ?? 5000);
  if (!Number.isInteger(timeout) || timeout < 100 || timeout > 120_000) {
    throw new ConfigError('CONSISTENCY_TIMEOUT_MS', 'must be an integer from 100 to 120000');
  }
  return {
    internalToken,
    commandUrls: urls(env, 'COMMAND_URLS', options.gateway),
    queryUrls: urls(env, 'QUERY_URLS', options.gateway),
    consistencyTimeoutMs: timeout,
  };
}
