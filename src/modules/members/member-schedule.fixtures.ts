import type { App } from '../../app.js';
import { applyMemberSchedule } from './member-schedule.job.js';

/**
 * Runs the schedule job once at the app's clock, as a serving process does
 * within a minute after a facility's midnight: tests move their clock, run
 * this, and read what the job made of the members.
 */
export async function runSchedule(app: App): Promise<void> {
  await applyMemberSchedule.run(app.db, app.now);
}
