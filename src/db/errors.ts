/**
 * Recognises the database errors that carry meaning for the API, on both
 * dialects. Repositories turn them into the contract's error codes.
 */
type DbError = { code?: unknown; message?: unknown };

export function isUniqueViolation(error: unknown): boolean {
  const code = (error as DbError)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/**
 * Whether a unique violation is of the index on this column: PostgreSQL names
 * the index (`members_external_id_unique`), SQLite the columns
 * (`UNIQUE constraint failed: members.facility_id, members.external_id`).
 */
export function isUniqueViolationOf(error: unknown, column: string): boolean {
  if (!isUniqueViolation(error)) return false;
  const { constraint, message } = (error as DbError & { constraint?: unknown }) ?? {};
  return String(constraint ?? message).includes(column);
}

export function isForeignKeyViolation(error: unknown): boolean {
  const { code, message } = (error as DbError) ?? {};
  if (code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY') return true;
  // SQLite reports an ON DELETE RESTRICT refusal as a trigger constraint.
  return code === 'SQLITE_CONSTRAINT_TRIGGER' && String(message).includes('FOREIGN KEY');
}

const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '53300', // too_many_connections
  '3D000', // invalid_catalog_name: the database is gone
]);

/** The database cannot be reached right now; the request may succeed if retried. */
export function isConnectionLost(error: unknown): boolean {
  const { code, message } = (error as DbError) ?? {};
  if (
    typeof code === 'string' &&
    (CONNECTION_ERROR_CODES.has(code) || code.startsWith('08') || code.startsWith('SQLITE_BUSY'))
  ) {
    return true;
  }
  return (
    typeof message === 'string' &&
    /Connection terminated|connection timeout|Client has encountered a connection error|not currently accepting connections/i.test(
      message,
    )
  );
}
