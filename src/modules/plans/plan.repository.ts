import { type Insertable, type Selectable, sql, type Updateable } from 'kysely';
import type { Executor } from '../../db/database.js';
import { type PageRead, type RowSizes, readPageRows } from '../../db/page-rows.js';
import { type PointReadOptions, pointRead } from '../../db/point-read.js';
import type { PlansTable } from '../../db/schema.js';
import type { Plan } from './plan.schemas.js';

type PlanRow = Selectable<PlansTable>;
export type PlanValues = Omit<Plan, 'id' | 'facility_id' | 'created_at' | 'updated_at' | 'deleted_at'>;

export function toPlan(row: PlanRow): Plan {
  const { name_folded: _, entitlements_version: __, ...rest } = row;
  return { ...rest, is_active: row.is_active === 1 } as Plan;
}

function toColumns(values: Partial<PlanValues>): Updateable<PlansTable> {
  const { is_active, ...rest } = values;
  return {
    ...rest,
    ...(values.name === undefined ? {} : { name_folded: values.name.toLowerCase() }),
    ...(is_active === undefined ? {} : { is_active: is_active ? 1 : 0 }),
  };
}

export async function insertPlan(
  db: Executor,
  facilityId: number,
  values: PlanValues,
  now: string,
): Promise<Plan> {
  const row = await db
    .insertInto('plans')
    .values({
      ...(toColumns(values) as Insertable<PlansTable>),
      facility_id: facilityId,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toPlan(row);
}

/** A plan with the write counter of its entitlements, which is part of their ETag. */
export interface PlanRecord {
  plan: Plan;
  entitlementsVersion: number;
}

const readPlanRow = pointRead<PlanRow>({ table: 'plans', key: 'id', lockMode: 'update' });

export async function findPlanRecordById(
  db: Executor,
  facilityId: number,
  planId: number,
  options: PointReadOptions = {},
): Promise<PlanRecord | undefined> {
  const row = await readPlanRow(db, facilityId, planId, options);
  return row && toPlanRecord(row);
}

function toPlanRecord(row: PlanRow): PlanRecord {
  return { plan: toPlan(row), entitlementsVersion: row.entitlements_version };
}

export async function findPlanById(
  db: Executor,
  facilityId: number,
  planId: number,
  options: PointReadOptions = {},
): Promise<Plan | undefined> {
  return (await findPlanRecordById(db, facilityId, planId, options))?.plan;
}

/**
 * A plan's JSON holds at least its name and description, and 250 bytes for
 * the rest. In memory a plan takes at most 5 KiB: 2,120 characters of text
 * at 2 bytes each, and the rest.
 */
const PLAN_SIZES: RowSizes = {
  jsonBytesAtLeast: sql<number>`250 + octet_length(name) + coalesce(octet_length(description), 0)`,
  largestRowBytes: 5 * 1024,
};

export async function listPlans(
  db: Executor,
  facilityId: number,
  filter: { sportId?: number; includeInactive: boolean },
  page: PageRead,
): Promise<Plan[]> {
  const query = db
    .selectFrom('plans')
    .selectAll()
    .where('facility_id', '=', facilityId)
    .where('id', '>', page.afterId)
    .$if(filter.sportId !== undefined, (qb) => qb.where('sport_id', '=', filter.sportId as number))
    .$if(!filter.includeInactive, (qb) => qb.where('is_active', '=', 1))
    .orderBy('id')
    .limit(page.rows);
  return (await readPageRows(query, page, PLAN_SIZES)).map(toPlan);
}

export async function updatePlan(
  db: Executor,
  planId: number,
  changes: Partial<PlanValues> & { deleted_at?: string | null },
  now: string,
): Promise<Plan> {
  const row = await db
    .updateTable('plans')
    .set({ ...toColumns(changes), updated_at: now })
    .where('id', '=', planId)
    .returningAll()
    .executeTakeFirstOrThrow();
  return toPlan(row);
}

export async function deletePlanById(db: Executor, planId: number): Promise<void> {
  await db.deleteFrom('plans').where('id', '=', planId).execute();
}
