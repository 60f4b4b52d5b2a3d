import { sql } from 'kysely';

/**
 * Ends a query whose best plan depends on its values, as a search's does (an
 * index of the term's trigrams for a rare term, the facility's members in
 * order for a common one): it is planned on every call. A prepared statement
 * would, after five calls, keep one generic plan for every term. The mark
 * is an SQL comment: the PostgreSQL adapter reads it, SQLite ignores it.
 */
export const PLANNED_PER_CALL_TEXT = '/* planned per call */';
export const PLANNED_PER_CALL = sql.raw(PLANNED_PER_CALL_TEXT);
