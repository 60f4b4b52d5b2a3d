import type { Selectable } from 'kysely';
import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { engineOf } from '../../db/engine/engine.js';
import type { PageRead } from '../../db/page-rows.js';
import type { FacilitiesTable } from '../../db/schema.js';
import type { Facility } from './facility.schemas.js';

type FacilityRow = Selectable<FacilitiesTable>;
export type FacilityValues = Pick<FacilitiesTable, 'name' | 'address' | 'contact_email' | 'phone'>;
export type FacilityChanges = Partial<FacilityValues> & { archived_at?: string | null };

export function toFacility(row: FacilityRow): Facility {
  const { name_folded: _, ...rest } = row;
  return { ...rest, id: Number(row.id), status: row.archived_at === null ? 'active' : 'archived' };
}

/** A facility that has no row: used by its id only (or not at all), never named. */
export function unnamedFacility(id: number): Facility {
  return {
    id,
    name: null,
    address: null,
    contact_email: null,
    phone: null,
    status: 'active',
    archived_at: null,
    created_at: null,
    updated_at: null,
  };
}

export async function findFacilityById(
  db: Executor,
  id: number,
  options: { lock?: boolean } = {},
): Promise<Facility | undefined> {
  const row = await db
    .selectFrom('facilities')
    .selectAll()
    .where('id', '=', id)
    .$if(options.lock === true && engineOf(db).locksRows, (query) => query.forUpdate())
    .executeTakeFirst();
  return row && toFacility(row);
}

/**
 * Gives a facility used by its id only a row, so that a write can lock and
 * change it; true when it had none (it was an unnamed facility until now).
 */
export async function insertFacilityRowIfMissing(db: Executor, id: number, now: string): Promise<boolean> {
  const inserted = await db
    .insertInto('facilities')
    .values({ id, created_at: now, updated_at: now })
    .onConflict((conflict) => conflict.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/**
 * A new facility, its id above every facility's in use: those with a row and
 * those with a policy (a policy is made on its first read, which writes no
 * row here). Two creates at once may pick the same id: the primary key
 * refuses the second, which the service tries again.
 */
export async function insertNewFacility(
  db: Executor,
  values: FacilityValues,
  now: string,
): Promise<Facility> {
  const highest = await db
    .selectNoFrom([
      sql<number | null>`(select max(id) from facilities)`.as('facility'),
      sql<number | null>`(select max(facility_id) from policies)`.as('policy'),
    ])
    .executeTakeFirstOrThrow();
  const id = Math.max(Number(highest.facility ?? 0), Number(highest.policy ?? 0)) + 1;
  const row = await db
    .insertInto('facilities')
    .values({ id, ...values, name_folded: foldName(values.name), created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toFacility(row);
}

export async function updateFacility(
  db: Executor,
  id: number,
  changes: FacilityChanges,
  now: string,
): Promise<Facility> {
  const folded = changes.name === undefined ? {} : { name_folded: foldName(changes.name) };
  const row = await db
    .updateTable('facilities')
    .set({ ...changes, ...folded, updated_at: now })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return toFacility(row);
}

/** Which facilities a list shows: by status, and the caller's (`all`, or the ids of its roles). */
export interface FacilityListFilter {
  status: 'active' | 'archived' | 'all';
  reachable: number[] | 'all';
}

/**
 * A page of facilities by id. A caller with every facility sees those with
 * a row (named, created, or written to); a caller with some sees each of
 * them, unnamed ones included.
 */
export async function listFacilities(
  db: Executor,
  filter: FacilityListFilter,
  page: PageRead,
): Promise<Facility[]> {
  const query = db
    .selectFrom('facilities')
    .selectAll()
    .where('id', '>', page.afterId)
    .$if(filter.status === 'active', (qb) => qb.where('archived_at', 'is', null))
    .$if(filter.status === 'archived', (qb) => qb.where('archived_at', 'is not', null))
    .orderBy('id');
  if (filter.reachable === 'all') return (await query.limit(page.rows).execute()).map(toFacility);
  const ids = filter.reachable.filter((id) => id > page.afterId).sort((a, b) => a - b);
  const rows = ids.length === 0 ? [] : await query.where('id', 'in', ids).execute();
  const byId = new Map(rows.map((row) => [Number(row.id), toFacility(row)]));
  return ids
    .map((id) => byId.get(id) ?? (filter.status === 'archived' ? undefined : unnamedFacility(id)))
    .filter((facility): facility is Facility => facility !== undefined)
    .slice(0, page.rows);
}

function foldName(name: string | null): string | null {
  return name === null ? null : name.toLowerCase();
}
