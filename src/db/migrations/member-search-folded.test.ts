/**
 * Migration 0041 on a database with members from before it: their folded
 * text is written, each engine's index is rebuilt on it, and the members are
 * found by words without accents at once; down restores the schema before.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTestDatabase, DIALECTS } from '../../../test/harness.js';
import { listMembers } from '../../modules/members/member-list.repository.js';
import { openDatabase } from '../database.js';
import { migrateTo, migrateToLatest } from '../migrate.js';

for (const dialect of DIALECTS) {
  test(`[${dialect}] migration 0041 backfills the folded text of members from before it`, async () => {
    const created = await createTestDatabase(dialect);
    const database = openDatabase(created.url);
    try {
      await migrateTo(database.db, '0040_access');
      const now = '2026-01-01T00:00:00.000Z';
      const member = (first_name: string, more: object = {}) => ({
        facility_id: 1,
        first_name,
        role: 'member',
        status: 'active',
        joined_on: '2026-01-01',
        status_changed_at: now,
        created_at: now,
        updated_at: now,
        ...more,
      });
      // biome-ignore lint/suspicious/noExplicitAny: the schema before 0041 has no search_text
      const before = database.db as any;
      await before
        .insertInto('members')
        .values([
          member('Jürgen', { last_name: 'Müller', phone: '079 123 45 67' }),
          member('Zoë', { external_id: 'OLD-1001' }),
          ...Array.from({ length: 1500 }, (_, i) => member(`Filler${i}`)),
        ])
        .execute();
      await migrateToLatest(database.db);
      const search = async (q: string) =>
        (await listMembers(database.db, 1, { q, afterId: 0, limit: 10, maxBytes: 1 << 20 })).map(
          (m) => m.first_name,
        );
      assert.deepEqual(await search('jurgen muller'), ['Jürgen']);
      assert.deepEqual(await search('0791234567'), ['Jürgen']);
      assert.deepEqual(await search('zoe old-1001'), ['Zoë']);
      assert.deepEqual(await search('filler1499'), ['Filler1499']);
      await migrateTo(database.db, '0040_access');
      await migrateToLatest(database.db);
      assert.deepEqual(await search('müller'), ['Jürgen']);
    } finally {
      await database.close();
      await created.drop();
    }
  });
}
