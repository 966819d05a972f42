import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      logLevel: 'info',
      publicUrl: 'http://127.0.0.1:8080',
      rateLimitMax: 1_000_000,
      rateLimitWindowMs: 60_000,
      bodyLimitBytes: 8 * 1024 * 1024,
    });
    expect(config.dataDir).toMatch(/\/data$/);
    expect(config.eventstoreUrl).toBeUndefined();
    expect(config.mongoUrl).toBeUndefined();
    expect(config.redisUrl).toBeUndefined();
  });

  it('reads the server URLs and the bootstrap token', () => {
    const config = loadConfig({
      EVENTSTORE_URL: 'esdb://localhost:2113?tls=false',
      MONGO_URL: 'mongodb://localhost:27017/docs',
      REDIS_URL: 'redis://127.0.0.1:6380',
      BOOTSTRAP_TOKEN: 'a-very-long-bootstrap-token-value',
      DATA_DIR: '/var/lib/docs',
    });
    expect(config).toMatchObject({
      eventstoreUrl: 'esdb://localhost:2113?tls=false',
      mongoUrl: 'mongodb://localhost:27017/docs',
      redisUrl: 'redis://127.0.0.1:6380',
      bootstrapToken: 'a-very-long-bootstrap-token-value',
      dataDir: '/var/lib/docs',
    });
  });

  it('accepts every connection string the clients take, several hosts included; checks only the scheme', () => {
    const config = loadConfig({
      EVENTSTORE_URL: 'esdb://a:2113,b:2113,c:2113?tls=false&nodePreference=leader',
      MONGO_URL: 'mongodb://user:p%40ss@h1:27017,h2:27018/docs?replicaSet=rs0&w=majority',
    });
    expect(config.eventstoreUrl).toBe('esdb://a:2113,b:2113,c:2113?tls=false&nodePreference=leader');
    expect(config.mongoUrl).toBe('mongodb://user:p%40ss@h1:27017,h2:27018/docs?replicaSet=rs0&w=majority');
    expect(loadConfig({ MONGO_URL: 'mongodb+srv://cluster0.example.net/docs' }).mongoUrl).toMatch(
      /^mongodb\+srv/,
    );
    expect(
      loadConfig({ EVENTSTORE_URL: 'esdb+discover://cluster.example.net:2113' }).eventstoreUrl,
    ).toBeDefined();
    // The installed client does not take KurrentDB's scheme: refused here rather than at the first append.
    expect(() => loadConfig({ EVENTSTORE_URL: 'kurrentdb://localhost:2113' })).toThrow(
      /EVENTSTORE_URL.*esdb:\/\//,
    );
  });

  it('reads the limits; a rate limit of 0 turns limiting off', () => {
    const config = loadConfig({
      RATE_LIMIT_MAX: '0',
      RATE_LIMIT_WINDOW_MS: '1000',
      BODY_LIMIT_BYTES: '2048',
    });
    expect(config).toMatchObject({ rateLimitMax: 0, rateLimitWindowMs: 1000, bodyLimitBytes: 2048 });
  });

  it.each([
    ['PORT', { PORT: 'eighty' }],
    ['PORT', { PORT: '70000' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'loud' }],
    ['MONGO_URL', { MONGO_URL: 'http://localhost' }],
    ['REDIS_URL', { REDIS_URL: 'not a url' }],
    ['EVENTSTORE_URL', { EVENTSTORE_URL: 'postgres://x' }],
    ['BOOTSTRAP_TOKEN', { BOOTSTRAP_TOKEN: 'short' }],
    ['HOST', { HOST: 'bad host!' }],
    ['RATE_LIMIT_MAX', { RATE_LIMIT_MAX: '-1' }],
    ['RATE_LIMIT_WINDOW_MS', { RATE_LIMIT_WINDOW_MS: '10' }],
    ['BODY_LIMIT_BYTES', { BODY_LIMIT_BYTES: '1MiB' }],
  ])('rejects an invalid %s, naming it', (variable, env) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(variable));
  });
});
