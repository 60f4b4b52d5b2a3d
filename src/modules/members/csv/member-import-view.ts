import type { ErrorCode } from '../../../core/errors.js';
import type { ImportRow } from './member-import.repository.js';
import type { MemberImport } from './member-import.schemas.js';

/** A job as clients see it. */
export function toMemberImport(row: ImportRow): MemberImport {
  const finished = row.state === 'succeeded' || row.state === 'failed';
  return {
    id: row.id,
    facility_id: row.facility_id,
    state: row.state as MemberImport['state'],
    dry_run: row.dry_run === 1,
    match_by: row.match_by as MemberImport['match_by'],
    on_error: row.on_error as MemberImport['on_error'],
    progress: { phase: row.phase, rows_done: row.rows_done, rows_total: row.rows_total },
    report: finished && row.report !== null ? JSON.parse(row.report) : null,
    error:
      row.state === 'failed' && row.error_code !== null
        ? { code: row.error_code as ErrorCode, message: row.error_message ?? '' }
        : null,
    created_at: row.created_at,
    started_at: row.started_at,
    finished_at: row.finished_at,
    expires_at: row.expires_at,
  };
}
