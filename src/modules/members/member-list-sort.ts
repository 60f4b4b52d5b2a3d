/**
 * The member list in another order than by id (`sort=`): by a column, the id
 * breaking ties, in one direction, a page starting after the previous page's
 * last (value, id) so that it costs the same however deep it is and a member
 * added meanwhile neither shifts nor repeats the members after it.
 */
import { type ExpressionBuilder, type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import type { SortedAfter } from '../../core/paging.js';
import type { DatabaseSchema } from '../../db/schema.js';

export const SORT_FIELDS = ['first_name', 'last_name', 'joined_on', 'created_at'] as const;
export type SortField = (typeof SORT_FIELDS)[number];

export interface MemberSort {
  field: SortField;
  descending: boolean;
  /** The previous page's last member; undefined on the first page. */
  after?: SortedAfter;
}

/** `first_name`, `-joined_on`: a field, descending with a leading `-`. */
export function parseSort(sort: string): Omit<MemberSort, 'after'> {
  const descending = sort.startsWith('-');
  return { field: (descending ? sort.slice(1) : sort) as SortField, descending };
}

/** A last name may be null: it sorts as the empty text, first ascending, so that the key has one value. */
function sortKey(field: SortField): RawBuilder<string> {
  return field === 'last_name' ? sql<string>`coalesce(last_name, '')` : sql<string>`${sql.ref(field)}`;
}

/** The sort value of a member as sortKey reads it, which a cursor carries. */
export function sortValueOf(member: { [F in SortField]: string | null }, field: SortField): string {
  return member[field] ?? '';
}

/** The members after `sort.after` in the sort's order, ordered, at most `limit`. */
export function inSortOrder<O>(
  query: SelectQueryBuilder<DatabaseSchema, 'members', O>,
  sort: MemberSort,
  limit: number,
): SelectQueryBuilder<DatabaseSchema, 'members', O> {
  const key = sortKey(sort.field);
  const direction = sort.descending ? 'desc' : 'asc';
  const beyond = sort.descending ? '<' : '>';
  const { after } = sort;
  const started =
    after === undefined
      ? query
      : query.where((eb: ExpressionBuilder<DatabaseSchema, 'members'>) =>
          eb.or([
            eb(key, beyond, after.value),
            eb.and([eb(key, '=', after.value), eb('id', beyond, after.id)]),
          ]),
        );
  return started.orderBy(key, direction).orderBy('id', direction).limit(limit);
}
