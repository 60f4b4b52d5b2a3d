import { addDays, todayIn } from '../../core/dates.js';
import { instantOfLocal } from '../../core/local-time.js';
import type { Executor } from '../../db/database.js';
import {
  countPresent,
  countVisits,
  findOpenVisitAfter,
  presenceCutoff,
} from '../check-ins/check-in.service.js';
import { listFreezesOfMember } from '../freezes/freeze.service.js';
import type { MemberRecord } from '../members/member-door.service.js';
import { listEntitlementsOfPlan } from '../plans/entitlement.service.js';
import { findPlan } from '../plans/plan.service.js';
import type { PolicySettings } from '../policy/policy.schemas.js';
import {
  type Balance,
  GUEST_PASSES_KEY,
  type MemberFacts,
  VISIT_LIMIT_KEYS,
  type VisitBalance,
} from './access-decision.rules.js';
import { openingAt } from './rules/opening-hours.js';
import { type PeriodKind, periodOf } from './rules/periods.js';

/**
 * Reads what the rules judge about a member at `now`. When recording, the
 * caller holds the member's row lock (and the policy's, for capacity), so
 * the counts read here cannot change before the check-in is stored.
 */
export async function readMemberFacts(
  db: Executor,
  policy: PolicySettings,
  member: MemberRecord,
  request: { area?: string; guests: number },
  now: Date,
): Promise<MemberFacts> {
  const zone = policy.timezone;
  const today = todayIn(zone, now);
  const period = (kind: PeriodKind) => periodOf(kind, now, zone, policy.week_starts_on);
  const plan = member.plan_id === null ? undefined : await findPlan(db, member.facility_id, member.plan_id);
  const entitlements =
    plan === undefined
      ? null
      : Object.fromEntries((await listEntitlementsOfPlan(db, plan.id)).map((e) => [e.key, e.value]));

  const visits: VisitBalance[] = [];
  for (const [kind, key] of Object.entries(VISIT_LIMIT_KEYS) as [PeriodKind, string][]) {
    const limit = entitlements?.[key];
    if (typeof limit !== 'number') continue;
    const { startsAt, endsAt } = period(kind);
    const used = (await countVisits(db, member.id, startsAt.toISOString(), endsAt.toISOString())).visits;
    visits.push({ period: kind, ...balance(limit, used, endsAt) });
  }

  const planPasses = entitlements?.[GUEST_PASSES_KEY];
  // The plan's number wins over the policy's: a plan may give more, or fewer, than the facility's default.
  const passLimit = typeof planPasses === 'number' ? planPasses : policy.guest_passes_per_month;
  let guestPasses: Balance | null = null;
  if (passLimit > 0 || request.guests > 0) {
    const { startsAt, endsAt } = period('month');
    const used = (await countVisits(db, member.id, startsAt.toISOString(), endsAt.toISOString())).guests;
    guestPasses = balance(passLimit, used, endsAt);
  }

  let occupancy: MemberFacts['occupancy'] = null;
  if (policy.max_occupancy !== null) {
    const present = await countPresent(
      db,
      member.facility_id,
      presenceCutoff(now, policy.occupancy_cutoff_minutes),
    );
    occupancy = { total: present.present + present.guests, max: policy.max_occupancy };
  }

  const openVisit =
    policy.anti_passback_minutes > 0
      ? await findOpenVisitAfter(
          db,
          member.id,
          new Date(now.getTime() - policy.anti_passback_minutes * 60_000).toISOString(),
        )
      : undefined;

  return {
    now,
    today,
    policy,
    member,
    frozenUntil: member.status === 'frozen' ? await freezeEnd(db, member.id, zone, today) : null,
    startsAt: member.joined_on > today ? instantOfLocal(zone, member.joined_on, '00:00') : null,
    plan: plan ? { name: plan.name, active: plan.is_active && plan.deleted_at === null } : null,
    entitlements,
    opening: openingAt(policy, now),
    area: request.area,
    guests: request.guests,
    visits,
    guestPasses,
    occupancy,
    openVisit: openVisit ?? null,
  };
}

function balance(limit: number, used: number, endsAt: Date): Balance {
  const whole = Math.max(0, Math.floor(limit));
  return { limit: whole, used, left: Math.max(0, whole - used), resets_at: endsAt.toISOString() };
}

/** When the freeze under way today ends (the next local midnight after its last day); null: open-ended. */
async function freezeEnd(db: Executor, memberId: number, zone: string, today: string): Promise<Date | null> {
  const current = (await listFreezesOfMember(db, memberId)).find(
    (f) => f.cancelled_at === null && f.starts_on <= today && (f.ends_on === null || f.ends_on >= today),
  );
  if (!current || current.ends_on === null) return null;
  return instantOfLocal(zone, addDays(current.ends_on, 1), '00:00');
}

/** The visit limit with fewest visits left (the shorter period on a tie): the one a door shows. */
export function tightestVisits(visits: VisitBalance[]): VisitBalance | null {
  return visits.reduce<VisitBalance | null>(
    (best, v) => (best === null || v.left < best.left ? v : best),
    null,
  );
}
