import { AppError } from '../../core/errors.js';
import type { WriteContext } from '../../core/write-context.js';
import type { Db, Executor } from '../../db/database.js';
import type { PageRead } from '../../db/page-rows.js';
import { journalChange } from '../../journal/journal.js';
import { writeExisting } from '../../journal/write-path.js';
import { readPolicySettings } from '../policy/policy.service.js';
import {
  countPresent,
  findCheckIn,
  insertCheckIn,
  listCheckIns,
  setCheckedOut,
} from './check-in.repository.js';
import type { CheckIn, CheckInListQuery, Occupancy } from './check-in.schemas.js';
import './check-in.events.js';
import './check-in.problems.js';

export type NewCheckIn = Omit<CheckIn, 'id'>;

/** Stores a decision as a check-in and journals it (`access.allowed` / `access.denied`), in `trx`. */
export async function recordCheckIn(
  trx: Executor,
  context: WriteContext,
  values: NewCheckIn,
): Promise<CheckIn> {
  const checkIn = await insertCheckIn(trx, {
    ...values,
    reasons: JSON.stringify(values.reasons),
    actor: JSON.stringify(values.actor),
  });
  journalChange(trx, context, {
    facilityId: checkIn.facility_id,
    resourceType: 'check_in',
    resourceId: checkIn.id,
    action: 'create',
    before: null,
    after: checkIn,
  });
  return checkIn;
}

export async function listCheckInsPage(
  db: Db,
  facilityId: number,
  filter: CheckInListQuery,
  page: PageRead,
): Promise<CheckIn[]> {
  return listCheckIns(db, facilityId, filter, page.afterId, page.rows);
}

/**
 * Checks a member out: sets `checked_out_at` (they no longer count toward
 * the occupancy, and may come in again at once). Again: unchanged. A denied
 * check-in let nobody in: 409.
 */
export async function checkOut(
  db: Db,
  context: WriteContext,
  facilityId: number,
  checkInId: number,
): Promise<CheckIn> {
  const target = {
    lock: (trx: Executor) => findCheckIn(trx, facilityId, checkInId, { lock: true }),
    notFound: () =>
      new AppError('check_in_not_found', `Facility ${facilityId} has no check-in with id ${checkInId}`),
  };
  return writeExisting(db, context, target, async ({ trx, now, record }, current) => {
    if (current.decision === 'deny') {
      throw new AppError(
        'check_in_denied',
        `Check-in ${checkInId} was denied: nobody came in, so nobody can be checked out`,
      );
    }
    if (current.checked_out_at !== null) return current;
    const after = { ...current, checked_out_at: now.toISOString() };
    await setCheckedOut(trx, checkInId, after.checked_out_at);
    record({
      facilityId,
      resourceType: 'check_in',
      resourceId: checkInId,
      action: 'update',
      before: current,
      after,
    });
    return after;
  });
}

/** The instant before which a check-in not checked out no longer counts as present. */
export function presenceCutoff(now: Date, cutoffMinutes: number): string {
  return new Date(now.getTime() - cutoffMinutes * 60_000).toISOString();
}

export async function readOccupancy(db: Executor, facilityId: number, now: Date): Promise<Occupancy> {
  const policy = await readPolicySettings(db, facilityId);
  const counted = await countPresent(db, facilityId, presenceCutoff(now, policy.occupancy_cutoff_minutes));
  return {
    ...counted,
    total: counted.present + counted.guests,
    max_occupancy: policy.max_occupancy,
    cutoff_minutes: policy.occupancy_cutoff_minutes,
    as_of: now.toISOString(),
  };
}

// What access decisions count, read in their own transaction.
export { type CheckInRow, countPresent, countVisits, findOpenVisitAfter } from './check-in.repository.js';
