import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config';

const dataDir = () => mkdtempSync(join(tmpdir(), 'campus-config-'));

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({ DATA_DIR: dataDir() });
    expect(config).toMatchObject({
      PORT: 3000,
      HOST: '0.0.0.0',
      ACCESS_TOKEN_TTL: 900,
      REFRESH_TOKEN_TTL: 30 * 86_400,
      LOG_LEVEL: 'info',
      CORS_ORIGINS: [],
      REMINDER_LEAD: 7200,
      JOBS: 'on',
      STREAMS_PER_USER: 8,
      generatedJwtSecret: true,
    });
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it('generates a development JWT secret once and keeps it in DATA_DIR', () => {
    const dir = dataDir();
    const first = loadConfig({ DATA_DIR: dir });
    const second = loadConfig({ DATA_DIR: dir });
    expect(first.JWT_SECRET.length).toBeGreaterThanOrEqual(32);
    expect(second.JWT_SECRET).toBe(first.JWT_SECRET);
    expect(readFileSync(join(dir, 'jwt-secret'), 'utf8')).toBe(first.JWT_SECRET);
  });

  it('parses durations, origins and the database URL', () => {
    const config = loadConfig({
      DATA_DIR: dataDir(),
      ACCESS_TOKEN_TTL: '10m',
      REFRESH_TOKEN_TTL: '7d',
      REMINDER_LEAD: '90m',
      CORS_ORIGINS: 'https://a.test, https://b.test',
      DATABASE_URL: 'postgres://u@localhost:5432/db',
      JWT_SECRET: 'x'.repeat(32),
    });
    expect(config).toMatchObject({
      ACCESS_TOKEN_TTL: 600,
      REFRESH_TOKEN_TTL: 604_800,
      REMINDER_LEAD: 5400,
      CORS_ORIGINS: ['https://a.test', 'https://b.test'],
      DATABASE_URL: 'postgres://u@localhost:5432/db',
      generatedJwtSecret: false,
    });
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ JWT_SECRET: 'short' }, 'JWT_SECRET'],
    [{ NODE_ENV: 'production' }, 'JWT_SECRET'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ ACCESS_TOKEN_TTL: 'soon' }, 'ACCESS_TOKEN_TTL'],
    [{ ADMIN_EMAIL: 'admin@campus.test' }, 'ADMIN_PASSWORD'],
    [{ ADMIN_EMAIL: 'not-an-email', ADMIN_PASSWORD: 'password123' }, 'ADMIN_EMAIL'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ CORS_ORIGINS: 'https://a.test/app' }, 'CORS_ORIGINS'],
    [{ CORS_ORIGINS: 'https://a.test, a.test' }, 'CORS_ORIGINS'],
    [{ CORS_ORIGINS: 'https://a.test/' }, 'CORS_ORIGINS'],
    [{ TRUST_PROXY: 'not-an-address' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.0/99' }, 'TRUST_PROXY'],
    [{ REQUEST_TIMEOUT_MS: '0' }, 'REQUEST_TIMEOUT_MS'],
    [{ DATABASE_CONNECT_TIMEOUT_S: 'soon' }, 'DATABASE_CONNECT_TIMEOUT_S'],
    [{ REMINDER_LEAD: 'soon' }, 'REMINDER_LEAD'],
    [{ REMINDER_LEAD: '0' }, 'REMINDER_LEAD'],
    [{ REMINDER_LEAD: '8d' }, 'REMINDER_LEAD'],
    [{ STREAMS_PER_USER: '0' }, 'STREAMS_PER_USER'],
    [{ JOBS: 'maybe' }, 'JOBS'],
  ])('refuses %o with one line naming %s', (env, variable) => {
    let error: unknown;
    try {
      loadConfig({ DATA_DIR: dataDir(), ...env });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain(variable);
    expect((error as Error).message).not.toContain('\n');
  });
});
