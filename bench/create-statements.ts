/**
 * A PostgreSQL member create as the service makes it, at the level of the
 * driver alone (no HTTP, validation or service code): its transaction's
 * statements, each a named prepared statement as the service runs them
 * (src/db/postgres/named-statements.ts): begin, the facility's policy, the
 * member (the floor's INSERT, whose columns the service's leaves null but
 * for these), the journal (the audit entry and the event in one statement,
 * as src/db/postgres/journal-append.ts writes them), commit. Shared by the
 * benchmark's floor (bench/floor.ts, the write ceiling of `npm run bench`)
 * and bench/write-ceiling.ts.
 */
import type pg from 'pg';

export const MEMBER_COLUMNS =
  'facility_id, first_name, last_name, role, status, joined_on, status_changed_at, created_at, updated_at';
export const INSERT_MEMBER = `insert into members (${MEMBER_COLUMNS}) values ($1, $2, $3, 'member', 'active', $4, $5, $6, $7) returning *`;

/** The columns a member needs: the service's defaults for a create with a name only. */
export const memberValues = (facility: number, firstName: string, lastName: string, now: string) => [
  facility,
  firstName,
  lastName,
  now.slice(0, 10),
  now,
  now,
  now,
];

/** src/db/postgres/journal-append.ts's statement, for one audit entry and one event. */
const JOURNAL = `with feed_locks as materialized (
    select pg_advisory_xact_lock(-facility) from unnest($1::int8[]) as facility order by facility
  ), audit as (
    insert into audit_events
      (facility_id, resource_type, resource_id, action, api_key_id, api_key_name, changes, request_id,
       occurred_at, staff_user_id)
    select * from unnest($2::int8[], $3::text[], $4::text[], $5::text[], $6::int8[], $7::text[], $8::text[],
      $9::text[], $10::timestamptz[], $11::int8[])
  ), known_facilities as (
    insert into facilities (id, created_at, updated_at)
    select facility, $13::timestamptz, $13::timestamptz from unnest($12::int8[]) as facility
    on conflict (id) do nothing
  )
  insert into events (facility_id, type, resource, occurred_at, data, actor)
  select e.facility_id, e.type, e.resource, e.occurred_at, e.data, e.actor
  from (select count(*) from feed_locks) as locked,
    unnest($14::int8[], $15::text[], $16::text[], $17::timestamptz[], $18::text[], $19::text[])
      with ordinality as e(facility_id, type, resource, occurred_at, data, actor, position)
  order by e.position`;

/** A member's JSON as the audit entry and the event carry it. */
const memberJson = (member: Record<string, unknown>) => JSON.stringify(member);

/** One create: its five round trips on one connection of the pool. */
export async function createAsTheService(
  pool: pg.Pool,
  facility: number,
  firstName: string,
  lastName: string,
): Promise<Record<string, unknown>> {
  const now = new Date().toISOString();
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query({
      name: 'policy',
      text: 'select * from policies where facility_id = $1',
      values: [facility],
    });
    const inserted = await client.query({
      name: 'insert',
      text: INSERT_MEMBER,
      values: memberValues(facility, firstName, lastName, now),
    });
    const member = inserted.rows[0] as Record<string, unknown>;
    const json = memberJson(member);
    const actor = JSON.stringify({ type: 'api_key', id: null, name: 'bench' });
    await client.query({
      name: 'journal',
      text: JOURNAL,
      values: [
        [facility],
        [facility],
        ['member'],
        [String(member.id)],
        ['create'],
        [null],
        ['bench'],
        [json],
        ['r'],
        [now],
        [null],
        [facility],
        now,
        [facility],
        ['member.created'],
        ['member'],
        [now],
        [json],
        [actor],
      ],
    });
    await client.query('commit');
    return member;
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
