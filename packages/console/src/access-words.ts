import type { AccessReasonCode } from '@facility-admin/client';

/** Each reason an access decision gives, in a few words for a list (the decision's message says it in full). */
const REASON_WORDS: Record<AccessReasonCode, string> = {
  credential_unknown: 'unknown credential',
  credential_revoked: 'revoked credential',
  member_not_active: 'not active',
  term_not_started: 'term not started',
  term_ended: 'term ended',
  waiver_required: 'waiver missing',
  plan_inactive: 'no active plan',
  outside_opening_hours: 'closed',
  area_not_included: 'area not included',
  visit_limit_reached: 'visit limit reached',
  guest_passes_exhausted: 'no guest passes left',
  facility_full: 'facility full',
  already_checked_in: 'already checked in',
};

/** A reason code in words; a code a newer service sends, as it comes. */
export function reasonWords(code: string): string {
  return (REASON_WORDS as Record<string, string>)[code] ?? code.replace(/_/g, ' ');
}
