import { ConfigError, loadConfig } from '../../src/config';

const valid = {
  DATABASE_URL: 'postgres://u:p@localhost:5432/db',
  JWT_SECRET: 'x'.repeat(32),
  SMTP_URL: 'smtp://localhost:1025',
  S3_ENDPOINT: 'http://localhost:4569',
  S3_ACCESS_KEY: 'key',
  S3_SECRET_KEY: 'secret',
  ENCRYPTION_KEYS: `k1:${Buffer.alloc(32, 7).toString('base64')}`,
};

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig(valid);
    expect(config.port).toBe(3000);
    expect(config.temporal).toEqual({ address: 'localhost:7233', namespace: 'default', taskQueue: 'hotel' });
    expect(config.accessTokenTtlSeconds).toBe(900);
    expect(config.refreshTokenTtlDays).toBe(30);
    expect(config.invitationTtlSeconds).toBe(7 * 24 * 3600);
    expect(config.baseUrl).toBe('http://localhost:3000');
    expect(config.cdnUrl).toBe('http://localhost:3000/api/files');
    expect(config.encryption.currentKeyId).toBe('k1');
    expect(config.databaseLimits.api).toEqual({
      statementTimeoutMs: 5000,
      lockTimeoutMs: 2000,
      idleInTransactionTimeoutMs: 10_000,
      acquireTimeoutMs: 2000,
    });
    expect(config.hotelBulkhead).toEqual({ maxConcurrent: 5, publicMaxConcurrent: 2, queueTimeoutMs: 10000 });
    expect(config.http).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 60_000,
      keepAliveTimeoutMs: 65_000,
      maxConnectionsPerAddress: 1000,
    });
  });

  it('lets a hotel use about half of the pool, whatever its size', () => {
    expect(loadConfig({ ...valid, DATABASE_POOL_MAX: '30' }).hotelBulkhead.maxConcurrent).toBe(15);
    expect(loadConfig({ ...valid, DATABASE_POOL_MAX: '1' }).hotelBulkhead.maxConcurrent).toBe(1);
  });

  it("sizes the worker for this machine's bench, its workflow task slots never above its cache", () => {
    expect(loadConfig(valid).worker).toEqual({
      workflowTaskSlots: 40,
      activitySlots: 100,
      workflowPollers: 10,
      activityPollers: 10,
      nonStickyPollRatio: 0.2,
      stickyTimeoutMs: 10_000,
    });
    expect(loadConfig(valid).outboxRelayConcurrency).toBe(50);
    const small = loadConfig({ ...valid, WORKER_CACHED_WORKFLOWS: '10', WORKER_WORKFLOW_TASK_SLOTS: '50' }).worker;
    expect(small).toMatchObject({ cachedWorkflows: 10, workflowTaskSlots: 10 });
  });

  it.each([
    [{ DATABASE_URL: undefined }, 'DATABASE_URL'],
    [{ JWT_SECRET: 'short' }, 'JWT_SECRET'],
    [{ PORT: 'eighty' }, 'PORT'],
    [{ SMTP_URL: 'http://not-smtp' }, 'SMTP_URL'],
    [{ NODE_ENV: 'staging' }, 'NODE_ENV'],
    [{ ENCRYPTION_KEYS: 'k1:too-short' }, 'ENCRYPTION_KEYS'],
    [{ ENCRYPTION_KEY_ID: 'k9' }, 'ENCRYPTION_KEY_ID'],
    [{ S3_ENDPOINT: undefined }, 'S3_ENDPOINT'],
    [{ HTTP_HEADERS_TIMEOUT_MS: '20000', HTTP_REQUEST_TIMEOUT_MS: '10000' }, 'HTTP_REQUEST_TIMEOUT_MS'],
    [{ DATABASE_API_LOCK_TIMEOUT_MS: '-1' }, 'DATABASE_API_LOCK_TIMEOUT_MS'],
    [{ WORKER_NON_STICKY_POLL_RATIO: '1.5' }, 'WORKER_NON_STICKY_POLL_RATIO'],
    [{ WORKER_WORKFLOW_POLLERS: '1' }, 'WORKER_WORKFLOW_POLLERS'],
  ])('refuses %j naming the variable', (override, name) => {
    expect(() => loadConfig({ ...valid, ...override })).toThrow(ConfigError);
    expect(() => loadConfig({ ...valid, ...override })).toThrow(name);
  });

  it('refuses a Channex API root that is not https in production (the key would go in clear), but for the loopback', () => {
    const production = { ...valid, NODE_ENV: 'production' };
    const refusal = (env: NodeJS.ProcessEnv) => {
      try {
        loadConfig(env);
        return '';
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(refusal({ ...production, CHANNEX_API_URL: 'http://channex.example/api/v1' })).toContain('CHANNEX_API_URL');
    expect(refusal({ ...production, CHANNEX_API_URL: 'https://channex.example/api/v1' })).not.toContain(
      'CHANNEX_API_URL',
    );
    expect(refusal({ ...production, CHANNEX_API_URL: 'http://localhost.example/api/v1' })).toContain('CHANNEX_API_URL');
    expect(refusal({ ...production, CHANNEX_API_URL: 'http://127.0.0.1:4010/api/v1' })).not.toContain(
      'CHANNEX_API_URL',
    );
    expect(() => loadConfig({ ...valid, CHANNEX_API_URL: 'http://channex.example/api/v1' })).not.toThrow();
  });

  it("runs blocks' release clock ahead only outside production (tests bringing a release near)", () => {
    const ahead = { ...valid, BLOCK_RELEASE_CLOCK_AHEAD_SECONDS: '3600' };
    expect(loadConfig(valid).releaseClockAheadSeconds).toBe(0);
    expect(loadConfig(ahead).releaseClockAheadSeconds).toBe(3600);
    expect(() => loadConfig({ ...ahead, NODE_ENV: 'production' })).toThrow('BLOCK_RELEASE_CLOCK_AHEAD_SECONDS');
  });
});
