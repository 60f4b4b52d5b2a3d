import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import { test } from 'node:test';
import { AUTO_WORKERS_CAP, ConfigError, loadConfig } from '../src/config.js';

test('the defaults of the contract apply when nothing is set', () => {
  const config = loadConfig({});
  assert.equal(config.port, 3000);
  assert.equal(config.host, '127.0.0.1');
  assert.equal(config.databaseUrl, 'sqlite:./data/facility-admin.db');
  assert.equal(config.authMode, 'api-key');
  assert.equal(config.basePath, '');
  assert.equal(config.logLevel, 'info');
  assert.equal(config.bodyLimitBytes, 256 * 1024);
  assert.equal(config.jsonMaxDepth, 32);
  assert.equal(config.jsonMaxKeys, 1000);
  assert.equal(config.problemMaxErrors, 100);
  assert.equal(config.idempotencyMaxResponseBytes, 64 * 1024);
  assert.equal(config.workers, Math.min(availableParallelism(), AUTO_WORKERS_CAP));
});

test('an invalid value stops the start with a message naming the variable', () => {
  const invalid: Record<string, string>[] = [
    { PORT: 'abc' },
    { PORT: '70000' },
    { AUTH_MODE: 'off' },
    { LOG_LEVEL: 'loud' },
    { DATABASE_URL: 'mysql://x' },
    { BASE_PATH: 'api' },
    { ADMIN_API_KEY: 'has a space' },
    { WORKERS: '0' },
    { WORKERS: '2', DATABASE_URL: 'sqlite::memory:' },
    { BODY_LIMIT_BYTES: '10' },
    { JSON_MAX_DEPTH: '3' },
    { JSON_MAX_KEYS: '100' },
    { PROBLEM_MAX_ERRORS: '0' },
    { IDEMPOTENCY_MAX_RESPONSE_BYTES: '1024' },
  ];
  for (const env of invalid) {
    assert.throws(
      () => loadConfig(env),
      (error: Error) => {
        assert.ok(error instanceof ConfigError, `${JSON.stringify(env)}: ${error}`);
        const name = Object.keys(env).find((key) => error.message.includes(key));
        assert.ok(name, `${JSON.stringify(env)}: "${error.message}" names no variable`);
        return true;
      },
    );
  }
});

test('every invalid value is listed in one error, so that all are fixed in one round', () => {
  assert.throws(
    () =>
      loadConfig({
        PORT: 'abc',
        AUTH_MODE: 'off',
        LOG_LEVEL: 'loud',
        BASE_PATH: 'api',
        BODY_LIMIT_BYTES: '10',
        RATE_LIMIT_WINDOW_MS: '5',
      }),
    (error: Error) => {
      assert.ok(error instanceof ConfigError);
      assert.deepEqual(
        error.problems.map((problem) => problem.split(' ')[0]),
        ['AUTH_MODE', 'LOG_LEVEL', 'PORT', 'BASE_PATH', 'BODY_LIMIT_BYTES', 'RATE_LIMIT_WINDOW_MS'],
      );
      assert.doesNotMatch(error.message, /\n/);
      return true;
    },
  );
});

test('WORKERS is auto by default on SQLite: one process per CPU, at most AUTO_WORKERS_CAP; 1 on an in-memory database and on PostgreSQL', () => {
  const perCpu = Math.min(availableParallelism(), AUTO_WORKERS_CAP);
  assert.equal(loadConfig({}).workers, perCpu);
  assert.equal(loadConfig({ DATABASE_URL: 'postgres://127.0.0.1/x' }).workers, 1);
  assert.equal(loadConfig({ DATABASE_URL: 'postgres://127.0.0.1/x', WORKERS: 'auto' }).workers, perCpu);
  assert.equal(loadConfig({ WORKERS: 'auto' }).workers, perCpu);
  assert.equal(loadConfig({ DATABASE_URL: 'sqlite::memory:' }).workers, 1);
  assert.equal(loadConfig({ WORKERS: '1' }).workers, 1);
  assert.equal(loadConfig({ WORKERS: '6' }).workers, 6);
});

test('BASE_PATH loses its trailing slash', () => {
  assert.equal(loadConfig({ BASE_PATH: '/api/v1/' }).basePath, '/api/v1');
});

test('long polls take at most half of MAX_CONNECTIONS: the default, and a larger EVENTS_MAX_WAITERS is refused', () => {
  assert.equal(loadConfig({}).eventsMaxWaiters, 128);
  assert.equal(loadConfig({}).eventsMaxWaitersPerKey, 16);
  assert.equal(loadConfig({ MAX_CONNECTIONS: '1000' }).eventsMaxWaiters, 500);
  assert.equal(loadConfig({ EVENTS_MAX_WAITERS: '0' }).eventsMaxWaiters, 0);
  assert.throws(
    () => loadConfig({ EVENTS_MAX_WAITERS: '1000' }),
    (error: ConfigError) =>
      /EVENTS_MAX_WAITERS must be at most half of MAX_CONNECTIONS \(128\)/.test(error.message),
  );
  assert.throws(() => loadConfig({ EVENTS_MAX_WAITERS_PER_KEY: '0' }), /EVENTS_MAX_WAITERS_PER_KEY/);
});
