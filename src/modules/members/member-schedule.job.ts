import { systemClock } from '../../core/clock.js';
import type { PeriodicJob } from '../../jobs/job-runner.js';
import { readPolicySettings, todayIn } from '../policy/policy.service.js';
import { findMembersMaybeDue } from '../schedule/schedule.repository.js';
import { latestTodayAnywhere } from '../schedule/schedule.service.js';
import { settleDueMember } from './member-read.service.js';
import './member.problems.js';

const BATCH = 200;

/**
 * The schedule runs itself: every minute (and at start) the members whose
 * next scheduled change is due in their facility's time zone are settled, one
 * transaction each with the member locked, so that a member settled by a
 * read or another instance meanwhile is found with nothing due.
 */
export const applyMemberSchedule: PeriodicJob = {
  name: 'member-schedule',
  everyMs: 60_000,
  run: async (db, clock) => {
    const now = (clock ?? systemClock)();
    const timeZones = new Map<number, string>();
    let settled = 0;
    let afterId = 0;
    for (;;) {
      const candidates = await findMembersMaybeDue(db, latestTodayAnywhere(now), afterId, BATCH);
      for (const candidate of candidates) {
        let timeZone = timeZones.get(candidate.facility_id);
        if (timeZone === undefined) {
          timeZone = (await readPolicySettings(db, candidate.facility_id)).timezone;
          timeZones.set(candidate.facility_id, timeZone);
        }
        if (candidate.next_change_on > todayIn(timeZone, now)) continue;
        await settleDueMember(db, candidate.facility_id, candidate.id, now).then(
          (outcome) => {
            if (outcome.changed) settled++;
          },
          (error) => {
            if ((error as { code?: string }).code !== 'member_not_found') throw error;
          },
        );
      }
      if (candidates.length < BATCH) break;
      afterId = candidates[candidates.length - 1].id;
    }
    return { settled };
  },
};
