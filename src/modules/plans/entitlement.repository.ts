import type { Executor } from '../../db/database.js';
import { prepareQuery } from '../../db/prepared-query.js';
import type { Entitlement } from './entitlement.schemas.js';

type EntitlementValue = Entitlement['value'];

/** The plan's entitlements, sorted by key (binary order, the same on both dialects). */
export async function listEntitlements(db: Executor, planId: number): Promise<Entitlement[]> {
  const rows = await listEntitlementRowsQuery(db, { planId });
  return rows
    .map((row) => ({ key: row.key, value: JSON.parse(row.value_json) as EntitlementValue }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** Every access decision of a member with a plan reads them: compiled once (prepareQuery). */
const listEntitlementRowsQuery = prepareQuery<{ planId: number }, { key: string; value_json: string }>(
  (db, param) =>
    db.selectFrom('entitlements').select(['key', 'value_json']).where('plan_id', '=', param('planId')),
);

export async function findEntitlement(
  db: Executor,
  planId: number,
  key: string,
): Promise<Entitlement | undefined> {
  const row = await db
    .selectFrom('entitlements')
    .select('value_json')
    .where('plan_id', '=', planId)
    .where('key', '=', key)
    .executeTakeFirst();
  return row && { key, value: JSON.parse(row.value_json) };
}

export async function replaceEntitlements(
  db: Executor,
  planId: number,
  entitlements: Entitlement[],
): Promise<void> {
  await db.deleteFrom('entitlements').where('plan_id', '=', planId).execute();
  if (entitlements.length === 0) return;
  await db
    .insertInto('entitlements')
    .values(entitlements.map((e) => ({ plan_id: planId, key: e.key, value_json: JSON.stringify(e.value) })))
    .execute();
}

export async function upsertEntitlement(
  db: Executor,
  planId: number,
  key: string,
  value: EntitlementValue,
): Promise<void> {
  const value_json = JSON.stringify(value);
  await db
    .insertInto('entitlements')
    .values({ plan_id: planId, key, value_json })
    .onConflict((oc) => oc.columns(['plan_id', 'key']).doUpdateSet({ value_json }))
    .execute();
}

export async function deleteEntitlement(db: Executor, planId: number, key: string): Promise<boolean> {
  const result = await db
    .deleteFrom('entitlements')
    .where('plan_id', '=', planId)
    .where('key', '=', key)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function countEntitlements(db: Executor, planId: number): Promise<number> {
  const row = await db
    .selectFrom('entitlements')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('plan_id', '=', planId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function bumpEntitlementsVersion(db: Executor, planId: number): Promise<number> {
  const row = await db
    .updateTable('plans')
    .set((eb) => ({ entitlements_version: eb('entitlements_version', '+', 1) }))
    .where('id', '=', planId)
    .returning('entitlements_version')
    .executeTakeFirstOrThrow();
  return row.entitlements_version;
}
