import { addDays } from '../../core/dates.js';
import type { FreezeRow } from '../freezes/freeze.service.js';

/** What the schedule reads and changes of a member. */
export interface ScheduledMember {
  status: string;
  status_reason: string | null;
  ends_on: string | null;
  next_change_on: string | null;
}

export type ScheduleReason = 'freeze_started' | 'freeze_ended' | 'expired';

type Event =
  | { on: string; kind: 'freeze_end'; freeze: FreezeRow }
  | { on: string; kind: 'expire' }
  | { on: string; kind: 'freeze_start'; freeze: FreezeRow };

/** On one date, a freeze ends before the term expires, and the term expires before a freeze starts. */
const ORDER = { freeze_end: 0, expire: 1, freeze_start: 2 } as const;

const ENDED_STATUSES = new Set(['cancelled', 'removed']);

function eventsOf(member: ScheduledMember, freezes: readonly FreezeRow[]): Event[] {
  const events: Event[] = [];
  for (const freeze of freezes) {
    if (freeze.state === 'under_way' && freeze.ends_on !== null) {
      events.push({ on: addDays(freeze.ends_on, 1), kind: 'freeze_end', freeze });
    } else if (freeze.state === 'scheduled') {
      events.push({ on: freeze.starts_on, kind: 'freeze_start', freeze });
    }
  }
  if (member.ends_on !== null && !ENDED_STATUSES.has(member.status)) {
    events.push({ on: addDays(member.ends_on, 1), kind: 'expire' });
  }
  return events.sort((a, b) => (a.on === b.on ? ORDER[a.kind] - ORDER[b.kind] : a.on < b.on ? -1 : 1));
}

/** The first date on which something is due for the member, or null. */
export function nextChangeOn(member: ScheduledMember, freezes: readonly FreezeRow[]): string | null {
  return eventsOf(member, freezes)[0]?.on ?? null;
}

export interface ScheduleOutcome<M> {
  member: M;
  /** The freezes whose state, end or cancellation changed, as they are now. */
  changedFreezes: FreezeRow[];
}

/**
 * Applies, in date order, everything due on or before `today` (a date in the
 * facility's time zone): a freeze starts (an active member becomes frozen), a
 * freeze ends (a frozen member becomes active again), the term ends (the
 * member becomes cancelled, its freeze under way ends with the term, the
 * freezes planned after it are cancelled). An open-ended freeze under way
 * ends the day before a planned one starts. Every move is one the status
 * table allows; none takes a seat of a plan (frozen members hold theirs).
 * A freeze due to start while the member is neither active nor frozen is
 * cancelled. Pure: the caller writes what changed.
 */
export function applyDue<M extends ScheduledMember>(
  current: M,
  currentFreezes: readonly FreezeRow[],
  today: string,
  nowIso: string,
): ScheduleOutcome<M> {
  const member = { ...current };
  const freezes = currentFreezes.map((freeze) => ({ ...freeze }));
  const changed = new Set<FreezeRow>();
  const move = (status: string, reason: ScheduleReason) => {
    member.status = status;
    member.status_reason = reason;
  };
  for (
    let event = eventsOf(member, freezes)[0];
    event && event.on <= today;
    event = eventsOf(member, freezes)[0]
  ) {
    if (event.kind === 'freeze_end') {
      event.freeze.state = 'ended';
      changed.add(event.freeze);
      if (member.status === 'frozen') move('active', 'freeze_ended');
    } else if (event.kind === 'freeze_start') {
      changed.add(event.freeze);
      if (member.status === 'active' || member.status === 'frozen') {
        // An open-ended freeze (a PATCH to frozen) gives way to a planned one: it ends the day before.
        for (const open of freezes.filter((f) => f.state === 'under_way' && f.ends_on === null)) {
          open.state = 'ended';
          open.ends_on = addDays(event.on, -1);
          changed.add(open);
        }
        event.freeze.state = 'under_way';
        if (member.status === 'active') move('frozen', 'freeze_started');
      } else {
        event.freeze.state = 'cancelled';
        event.freeze.cancelled_at = nowIso;
      }
    } else {
      const lastDay = member.ends_on as string;
      move('cancelled', 'expired');
      for (const freeze of freezes) {
        if (freeze.state === 'under_way') {
          freeze.state = 'ended';
          if (freeze.ends_on === null || freeze.ends_on > lastDay) freeze.ends_on = lastDay;
          changed.add(freeze);
        } else if (freeze.state === 'scheduled') {
          freeze.state = 'cancelled';
          freeze.cancelled_at = nowIso;
          changed.add(freeze);
        }
      }
    }
  }
  member.next_change_on = nextChangeOn(member, freezes);
  return { member, changedFreezes: [...changed] };
}
