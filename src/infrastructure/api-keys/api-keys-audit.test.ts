/**
 * Issue 37: creating and revoking API keys with the real `keys` command is
 * audited, in the trail of each facility of the key's scope (a key for every
 * facility: once, for the whole service, and in every facility's trail),
 * with actor `cli`, and never with the secret or its hash.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../../../test/cli-process.js';
import { createTestDatabase, DIALECTS, removeSqliteFiles } from '../../../test/harness.js';
import { type App, buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import { createFirstAdminKey, hashSecret } from './api-key.service.js';

interface AuditEntry {
  facility_id: number;
  resource_type: string;
  resource_id: string;
  action: string;
  api_key_id: number | null;
  api_key_name: string;
  changes: Record<string, { before: unknown; after: unknown }>;
  request_id: string | null;
}

for (const dialect of DIALECTS) {
  describe(`API key changes in the audit trail [${dialect}]`, () => {
    let databaseUrl = '';
    let app: App;
    let drop = async () => {};
    before(async () => {
      const database = await createTestDatabase(dialect);
      // The command runs in other processes, so SQLite needs a file, removed afterwards.
      const file = `/tmp/fa-keys-audit-${process.pid}-${Date.now()}.db`;
      databaseUrl = dialect === 'sqlite' ? `sqlite:${file}` : database.url;
      drop = async () => {
        await app?.close();
        await database.drop();
        removeSqliteFiles(file);
      };
    });
    after(() => drop());

    const keys = async (...args: string[]) => {
      const result = await runCli(['keys', ...args], { env: { DATABASE_URL: databaseUrl } });
      assert.equal(result.code, 0, result.stderr);
      return result;
    };
    const trail = async (facility: number, query = '') => {
      const response = await app.inject({ url: `/admin/facilities/${facility}/audit-events${query}` });
      assert.equal(response.statusCode, 200, response.body);
      return JSON.parse(response.body).audit_events as AuditEntry[];
    };

    test('keys create and keys revoke write one entry per facility of the scope, by the cli, with no secret or hash', async () => {
      const scoped = (
        await keys('create', '--create', '--name', 'front desk', '--facilities', '7,8', '--role', 'viewer')
      ).stdout.trim();
      const everywhere = (await keys('create', '--name', 'ops', '--all-facilities')).stdout.trim();
      const listed = JSON.parse((await keys('list', '--json')).stdout) as { id: number; name: string }[];
      const frontDesk = listed.find((key) => key.name === 'front desk')?.id as number;
      const ops = listed.find((key) => key.name === 'ops')?.id as number;
      await keys('revoke', String(frontDesk));

      app = await buildApp({ ...loadConfig({}), databaseUrl, authMode: 'none' }, { logger: false });
      const seven = await trail(7);
      assert.deepEqual(
        seven.map((entry) => [entry.facility_id, entry.resource_id, entry.action]),
        [
          [7, String(frontDesk), 'create'],
          [0, String(ops), 'create'],
          [7, String(frontDesk), 'delete'],
        ],
      );
      for (const entry of seven) {
        assert.deepEqual(
          [entry.resource_type, entry.api_key_id, entry.api_key_name, entry.request_id],
          ['api_key', null, 'cli', null],
        );
      }
      const [created, createdEverywhere, revoked] = seven;
      assert.deepEqual(Object.keys(created.changes).sort(), ['created_at', 'facility_ids', 'name', 'role']);
      assert.deepEqual(
        [created.changes.name.after, created.changes.role.after, created.changes.facility_ids.after],
        ['front desk', 'viewer', [7, 8]],
      );
      assert.deepEqual(createdEverywhere.changes.facility_ids, { before: null, after: 'all' });
      assert.deepEqual(Object.keys(revoked.changes), ['revoked_at']);
      assert.equal(revoked.changes.revoked_at.before, null);
      assert.match(String(revoked.changes.revoked_at.after), /^\d{4}-\d\d-\d\dT.*Z$/);

      // Facility 8 holds the scoped key's entries too; facility 9 only the key for every facility.
      assert.deepEqual(
        (await trail(8)).map((entry) => `${entry.resource_id}:${entry.action}`),
        [`${frontDesk}:create`, `${ops}:create`, `${frontDesk}:delete`],
      );
      assert.deepEqual(
        (await trail(9)).map((entry) => `${entry.facility_id}:${entry.resource_id}:${entry.action}`),
        [`0:${ops}:create`],
      );
      assert.equal((await trail(9, '?resource_type=api_key')).length, 1);
      assert.equal((await trail(9, '?resource_type=member')).length, 0);

      const stored = JSON.stringify(await app.db.selectFrom('audit_events').selectAll().execute());
      for (const secret of [scoped, everywhere]) {
        for (const text of [secret, secret.slice(3), hashSecret(secret)])
          assert.equal(stored.includes(text), false, 'no secret or hash in the trail');
      }
      const feed = await app.inject({ url: '/admin/facilities/7/events' });
      assert.deepEqual(JSON.parse(feed.body).events, [], 'key changes are no events of the feed');
    });

    test('the first start’s admin key is audited with actor system, for the whole service', async () => {
      await app.db.deleteFrom('api_keys').execute();
      assert.ok(await createFirstAdminKey(app.db, app.now()));
      const [entry] = (await trail(1)).filter((e) => e.changes.name?.after === 'initial admin');
      assert.deepEqual(
        [entry.facility_id, entry.action, entry.api_key_id, entry.api_key_name],
        [0, 'create', null, 'system'],
      );
    });
  });
}
