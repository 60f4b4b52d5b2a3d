import type { WriteContext } from '../../core/write-context.js';
import type { Executor } from '../../db/database.js';
import { journalChange } from '../../journal/journal.js';
import { type FreezeRow, insertFreeze, listFreezesOfMember, updateFreeze } from './freeze.repository.js';
import { assertNoOverlap, assertWithinYearlyLimit } from './freeze.rules.js';
import './freeze.events.js';
import './freeze.problems.js';

export { listFreezesOfMember, listFreezesPage } from './freeze.repository.js';
/**
 * A member's freezes as other modules read and change them: the members
 * module (status moves, the schedule, imports) and the freezes API
 * (src/modules/members/freezes/). Every change of a freeze row goes through
 * here, with its journal entry. The caller holds the member's lock.
 */
export type { FreezeRow };

/** Stores a new freeze and journals it. */
export async function addFreeze(
  trx: Executor,
  context: WriteContext,
  values: Omit<FreezeRow, 'id' | 'cancelled_at'>,
): Promise<FreezeRow> {
  const freeze = await insertFreeze(trx, values);
  journalFreeze(trx, context, null, freeze);
  return freeze;
}

/** Stores what changed of a freeze (its state, end or cancellation) and journals it. */
export async function changeFreeze(
  trx: Executor,
  context: WriteContext,
  before: FreezeRow,
  after: FreezeRow,
): Promise<void> {
  await updateFreeze(trx, after);
  journalFreeze(trx, context, before, after);
}

/**
 * A PATCH to `frozen` freezes the member open-ended from today, and is
 * refused only by the yearly limit: `allowed_transitions`, which reads no
 * freezes, offers it (docs/decisions.md, "A PATCH to frozen").
 * - A freeze that ended today (a PATCH back to `active`, a removal) is
 *   under way again, open-ended: frozen, unfrozen and frozen again on one
 *   day is one freeze, which counts no more days than it did.
 * - Freezes planned later stay planned: the open-ended freeze ends the day
 *   before the first of them starts (members/member-schedule.ts), so the
 *   member is frozen throughout. It counts toward the yearly limit as every
 *   open-ended freeze does: to today.
 */
export async function openFreezeOfStatusMove(
  trx: Executor,
  context: WriteContext,
  member: { id: number; facility_id: number },
  today: string,
  maxDaysPerYear: number,
): Promise<void> {
  const freezes = await listFreezesOfMember(trx, member.id);
  // An active member's freezes that count have ended (today at the latest) or are planned after today.
  const endedToday = freezes.find((f) => f.state === 'ended' && f.ends_on === today);
  const others = freezes.filter((f) => f !== endedToday && !(f.state === 'scheduled' && f.starts_on > today));
  if (endedToday) {
    const reopened: FreezeRow = { ...endedToday, state: 'under_way', ends_on: null, cancelled_at: null };
    assertNoOverlap(reopened, others);
    await changeFreeze(trx, context, endedToday, reopened);
    return;
  }
  const span = { starts_on: today, ends_on: null };
  assertNoOverlap(span, others);
  assertWithinYearlyLimit(span, freezes, today, maxDaysPerYear);
  await addFreeze(trx, context, {
    facility_id: member.facility_id,
    member_id: member.id,
    ...span,
    reason: null,
    state: 'under_way',
    created_at: context.now.toISOString(),
  });
}

/** A PATCH from `frozen` (or a removal) ends the freeze under way today (open-ended or dated). */
export async function endFreezeOfStatusMove(
  trx: Executor,
  context: WriteContext,
  memberId: number,
  today: string,
): Promise<void> {
  for (const freeze of await listFreezesOfMember(trx, memberId)) {
    if (freeze.state !== 'under_way') continue;
    const ended: FreezeRow = {
      ...freeze,
      state: 'ended',
      ends_on: freeze.ends_on === null || freeze.ends_on > today ? today : freeze.ends_on,
    };
    await changeFreeze(trx, context, freeze, ended);
  }
}

function journalFreeze(
  trx: Executor,
  context: WriteContext,
  before: FreezeRow | null,
  after: FreezeRow,
): void {
  journalChange(trx, context, {
    facilityId: after.facility_id,
    resourceType: 'freeze',
    resourceId: after.id,
    action: before === null ? 'create' : 'update',
    before,
    after,
  });
}
