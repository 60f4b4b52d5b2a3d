import { todayIn } from '../../core/dates.js';
import type { Db } from '../../db/database.js';
import type { PeriodicJob } from '../../jobs/job-runner.js';
import { inWriteTransaction } from '../../journal/journal.js';
import { readPolicySettings, readTimeZones } from '../policy/policy.service.js';
import { findMemberById } from './member.repository.js';
import { findMembersMaybeDue } from './member-schedule.repository.js';
import { latestTodayAnywhere, settleMember } from './member-schedule.service.js';
import './member.problems.js';

const BATCH = 200;
/** Members settled at once, each in its own transaction. */
const SETTLING_AT_ONCE = 4;

/**
 * The schedule job, the one place where what falls due by date is applied:
 * freezes starting and ending, terms ending (a scheduled cancellation is a
 * term's end). Reads show members as stored and never settle them; a write
 * to a member applies what is due of it first, in its own transaction.
 *
 * It is due every 15 seconds, once across all processes (the runner's lease,
 * src/jobs/job-runner.ts), and at start, which catches up whatever fell due
 * while no process ran. A run starts at most `latestRunAfterMs` (37.5 s)
 * after any moment, so a member's status is right within a minute after
 * the facility's midnight as long as runs take less than the rest
 * (docs/decisions.md, "The schedule job's bound"). A process that dies
 * during a run holds the job until its lease, a minute, ends: a run that
 * takes longer is taken over meanwhile, which the members' locks make safe.
 */
export const applyMemberSchedule: PeriodicJob = {
  name: 'member-schedule',
  everyMs: 15_000,
  leaseMs: 60_000,
  run: async (db, clock) => {
    const now = clock();
    let settled = 0;
    let afterId = 0;
    for (;;) {
      const candidates = await findMembersMaybeDue(db, latestTodayAnywhere(now), afterId, BATCH);
      const timeZones = await readTimeZones(
        db,
        candidates.map((candidate) => candidate.facility_id),
      );
      const due = candidates.filter(
        (candidate) =>
          candidate.next_change_on <= todayIn(timeZones.get(candidate.facility_id) as string, now),
      );
      // A few at once: their commits overlap (PostgreSQL) or share a flush (SQLite's group commit), and
      // the pool keeps connections for requests.
      const lanes = Array.from({ length: SETTLING_AT_ONCE }, async () => {
        for (let next = due.shift(); next !== undefined; next = due.shift()) {
          if (await settleDueMember(db, next.facility_id, next.id, now)) settled++;
        }
      });
      await Promise.all(lanes);
      if (candidates.length < BATCH) break;
      afterId = candidates[candidates.length - 1].id;
    }
    return { settled };
  },
};

/**
 * Applies what is due for one member in its own transaction, the member
 * locked: of several processes that try at once, one changes it and the
 * others find nothing due. False when nothing changed (or the member was
 * hard-deleted meanwhile).
 */
async function settleDueMember(db: Db, facilityId: number, memberId: number, now: Date): Promise<boolean> {
  return inWriteTransaction(db, async (trx) => {
    const locked = await findMemberById(trx, facilityId, memberId, { lock: true });
    if (!locked) return false;
    const policy = await readPolicySettings(trx, facilityId);
    return (await settleMember(trx, locked, policy.timezone, now)) !== locked;
  });
}
