import { ConfigError, loadConfig } from '../../src/config';

const valid = {
  DATABASE_URL: 'postgres://u:p@localhost:5432/db',
  JWT_SECRET: 'x'.repeat(32),
  SMTP_URL: 'smtp://localhost:1025',
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
  });

  it.each([
    [{ DATABASE_URL: undefined }, 'DATABASE_URL'],
    [{ JWT_SECRET: 'short' }, 'JWT_SECRET'],
    [{ PORT: 'eighty' }, 'PORT'],
    [{ SMTP_URL: 'http://not-smtp' }, 'SMTP_URL'],
    [{ NODE_ENV: 'staging' }, 'NODE_ENV'],
  ])('refuses %j naming the variable', (override, name) => {
    expect(() => loadConfig({ ...valid, ...override })).toThrow(ConfigError);
    expect(() => loadConfig({ ...valid, ...override })).toThrow(name);
  });
});
