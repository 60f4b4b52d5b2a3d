/**
 * What operators rely on from the service's process: a graceful stop on
 * SIGTERM, the first key printed once (none with ADMIN_API_KEY), AUTH_MODE=none
 * announced, and every answered request logged in whole lines, also with
 * little traffic. The real command (test/service-process.ts), over HTTP.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { openDatabase } from '../src/db/database.js';
import { eventually } from './eventually.js';
import { removeSqliteFiles } from './harness.js';
import { startService } from './service-process.js';

test('SIGTERM stops the service gracefully: exit code 0, the port closed, the first key printed once', async () => {
  const file = `/tmp/facility-admin-shutdown-${process.pid}.db`;
  const service = await startService(`sqlite:${file}`, { env: { AUTH_MODE: 'api-key', LOG_LEVEL: 'info' } });
  try {
    assert.equal((await fetch(`${service.baseUrl}/healthz`)).status, 200);
    assert.equal(service.output().match(/fa_[A-Za-z0-9_-]{43}/g)?.length, 1);
    await service.kill('SIGTERM');
    assert.equal(service.child.exitCode, 0);
    assert.match(service.output(), /shutting down/);
    await assert.rejects(fetch(`${service.baseUrl}/healthz`));
  } finally {
    await service.kill('SIGKILL');
    removeSqliteFiles(file);
  }
});

test('with ADMIN_API_KEY set, the first start creates no API key and prints none', async () => {
  const file = `/tmp/facility-admin-admin-key-${process.pid}.db`;
  const adminKey = 'operations-admin-key-0123456789';
  const service = await startService(`sqlite:${file}`, {
    env: { AUTH_MODE: 'api-key', ADMIN_API_KEY: adminKey, LOG_LEVEL: 'info' },
  });
  try {
    const served = await fetch(`${service.baseUrl}/admin/facilities/1/policy`, {
      headers: { authorization: `Bearer ${adminKey}` },
    });
    assert.equal(served.status, 200);
    await service.kill('SIGTERM');
    assert.doesNotMatch(service.output(), /fa_[A-Za-z0-9_-]{43}|First start|shown only this once/);
    const database = openDatabase(`sqlite:${file}`);
    try {
      const { rows } = await sql<{ count: number }>`select count(*) as count from api_keys`.execute(
        database.db,
      );
      assert.equal(Number(rows[0].count), 0);
    } finally {
      await database.close();
    }
  } finally {
    await service.kill('SIGKILL');
    removeSqliteFiles(file);
  }
});

test('AUTH_MODE=none is announced at start even when LOG_LEVEL silences the log', async () => {
  const file = `/tmp/facility-admin-authless-${process.pid}.db`;
  const service = await startService(`sqlite:${file}`, { env: { AUTH_MODE: 'none', LOG_LEVEL: 'silent' } });
  try {
    assert.match(service.output(), /WARNING: AUTH_MODE=none: authentication is OFF/);
    assert.equal((await fetch(`${service.baseUrl}/admin/facilities/1/policy`)).status, 200);
  } finally {
    await service.kill('SIGKILL');
    removeSqliteFiles(file);
  }
});

test('every answered request is logged, in whole lines, even when SIGTERM comes while requests are in flight', async () => {
  const file = `/tmp/facility-admin-log-${process.pid}.db`;
  const service = await startService(`sqlite:${file}`, { env: { LOG_LEVEL: 'info', WORKERS: '2' } });
  try {
    const metrics = await (await fetch(`${service.baseUrl}/metrics`)).text();
    assert.match(metrics, /^log_lines_dropped_total 0$/m);
    const requests = Array.from({ length: 150 }, (_, i) =>
      fetch(`${service.baseUrl}/healthz`, { headers: { 'x-request-id': `flush-${i}` } }),
    );
    await Promise.race(requests);
    await service.kill('SIGTERM');
    const answered = (await Promise.allSettled(requests)).filter(
      (result) => result.status === 'fulfilled' && result.value.status === 200,
    ).length;
    const logged = service
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line));
    const ids = logged.filter((line) => line.msg === 'request').map((line) => String(line.reqId));
    assert.ok(answered > 0);
    assert.equal(new Set(ids.filter((id) => id.startsWith('flush-'))).size, answered);
  } finally {
    await service.kill('SIGKILL');
    removeSqliteFiles(file);
  }
});

test("with little traffic a request's log line is written, not held back for a batch that never fills", async () => {
  const file = `/tmp/facility-admin-log-quiet-${process.pid}.db`;
  const service = await startService(`sqlite:${file}`, { env: { LOG_LEVEL: 'info' } });
  try {
    await fetch(`${service.baseUrl}/healthz`, { headers: { 'x-request-id': 'quiet-1' } });
    await eventually("the request's log line", () => service.output().includes('"reqId":"quiet-1"'));
  } finally {
    await service.kill('SIGKILL');
    removeSqliteFiles(file);
  }
});
