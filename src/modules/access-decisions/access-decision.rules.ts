import type { ReasonCode } from '../check-ins/check-in.schemas.js';
import type { CheckInRow } from '../check-ins/check-in.service.js';
import type { MemberRecord } from '../members/member-door.service.js';
import type { Entitlement } from '../plans/entitlement.schemas.js';
import type { PolicySettings } from '../policy/policy.schemas.js';
import type { AccessReason } from './access-decision.schemas.js';
import type { Opening } from './rules/opening-hours.js';
import type { PeriodKind } from './rules/periods.js';

/** What a decision about a member judges: read by access-decision.facts.ts, judged here without I/O. */
export interface MemberFacts {
  now: Date;
  today: string;
  policy: PolicySettings;
  member: MemberRecord;
  /** The instant the member's current freeze ends; null: open-ended or not frozen. */
  frozenUntil: Date | null;
  /** Local midnight of `joined_on`, when it is after today. */
  startsAt: Date | null;
  plan: { name: string; active: boolean } | null;
  entitlements: Record<string, Entitlement['value']> | null;
  opening: Opening;
  area: string | undefined;
  guests: number;
  visits: VisitBalance[];
  guestPasses: Balance | null;
  /** People in now (members and guests), when the policy limits it. */
  occupancy: { total: number; max: number } | null;
  /** The member's visit anti-passback holds against, if any. */
  openVisit: CheckInRow | null;
}

export interface Balance {
  limit: number;
  used: number;
  left: number;
  resets_at: string;
}
export type VisitBalance = Balance & { period: PeriodKind };

/** The entitlement keys that limit visits, and the period each counts. */
export const VISIT_LIMIT_KEYS: Record<PeriodKind, string> = {
  day: 'visits_per_day',
  week: 'visits_per_week',
  month: 'visits_per_month',
};
export const GUEST_PASSES_KEY = 'guest_passes_per_month';

const reason = (code: ReasonCode, message: string, until: Date | string | null = null): AccessReason => ({
  code,
  message,
  until: until === null ? null : typeof until === 'string' ? until : until.toISOString(),
});

/** Every rule a member fails, in the documented order; `denies` false when only warnings were listed. */
export function judgeMember(facts: MemberFacts): { reasons: AccessReason[]; denies: boolean } {
  const { member, policy } = facts;
  const name = member.first_name;
  const reasons: AccessReason[] = [];
  let denies = false;
  const deny = (r: AccessReason) => {
    reasons.push(r);
    denies = true;
  };
  if (member.status !== 'active') {
    deny({
      ...reason('member_not_active', `${name}'s membership is ${member.status}.`, facts.frozenUntil),
      status: member.status,
    });
  }
  if (facts.startsAt) {
    deny(reason('term_not_started', `${name}'s membership starts on ${member.joined_on}.`, facts.startsAt));
  }
  if (member.ends_on !== null && member.ends_on < facts.today) {
    deny(reason('term_ended', `${name}'s membership ended on ${member.ends_on}.`));
  }
  if (policy.require_waiver && member.waiver_signed_at === null) {
    deny(reason('waiver_required', `${name} has not signed the waiver yet.`));
  }
  if (!facts.plan?.active) {
    deny(
      reason(
        'plan_inactive',
        facts.plan ? `${name}'s plan ${facts.plan.name} is no longer offered.` : `${name} has no plan.`,
      ),
    );
  }
  if (!facts.opening.open) {
    const why =
      facts.opening.why === 'closure' ? 'The facility is closed today.' : 'The facility is closed now.';
    deny(reason('outside_opening_hours', why, facts.opening.until));
  }
  if (facts.area !== undefined && !includesArea(facts.entitlements, facts.area)) {
    deny(reason('area_not_included', `${name}'s plan does not include ${facts.area}.`));
  }
  const reached = facts.visits.filter((v) => v.left === 0);
  if (reached.length > 0 && policy.visit_limit_mode !== 'count') {
    const last = reached.reduce((a, b) => (a.resets_at > b.resets_at ? a : b));
    const r = reason(
      'visit_limit_reached',
      `${name} has used all ${last.limit} visits of this ${last.period}.`,
      last.resets_at,
    );
    if (policy.visit_limit_mode === 'block') deny(r);
    else reasons.push(r);
  }
  const passes = facts.guestPasses;
  if (facts.guests > 0 && (passes === null || facts.guests > passes.left)) {
    const left = passes?.left ?? 0;
    deny(
      reason(
        'guest_passes_exhausted',
        `${name} has ${left} guest ${left === 1 ? 'pass' : 'passes'} left this month, not ${facts.guests}.`,
        passes?.resets_at ?? null,
      ),
    );
  }
  if (facts.occupancy && facts.occupancy.total + 1 + facts.guests > facts.occupancy.max) {
    deny(
      reason(
        'facility_full',
        `The facility is full: ${facts.occupancy.total} of ${facts.occupancy.max} people are in.`,
      ),
    );
  }
  if (facts.openVisit) {
    const until = new Date(Date.parse(facts.openVisit.checked_in_at) + policy.anti_passback_minutes * 60_000);
    deny(
      reason(
        'already_checked_in',
        `${name} came in less than ${policy.anti_passback_minutes} minutes ago and has not checked out.`,
        until,
      ),
    );
  }
  return { reasons, denies };
}

/** An area is included when its key has a value other than false, 0 or an empty string. */
function includesArea(entitlements: MemberFacts['entitlements'], area: string): boolean {
  const value = entitlements?.[area];
  return value !== undefined && value !== false && value !== 0 && value !== '';
}

export const credentialUnknown = () => reason('credential_unknown', 'This card or code is not known here.');
export const credentialRevoked = () =>
  reason('credential_revoked', 'This card or code was revoked; ask the member for their current one.');
