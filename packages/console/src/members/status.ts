import type { Member, MemberStatus } from '@facility-admin/client';

/** The statuses a member may move to now, as the service says (status table and policy). */
export function allowedTransitions(member: Member): MemberStatus[] {
  return member.allowed_transitions;
}

const MOVE_WORDS: Partial<Record<MemberStatus, string>> = {
  active: 'Activate',
  frozen: 'Freeze',
  suspended: 'Suspend',
  cancelled: 'Cancel membership',
};

/** The button's words for a move. */
export function moveLabel(from: MemberStatus, to: MemberStatus): string {
  if (from === 'removed') return to === 'active' ? 'Restore as active' : 'Restore as pending';
  return MOVE_WORDS[to] ?? `Set ${to}`;
}

export function fullName(member: Pick<Member, 'first_name' | 'last_name'>): string {
  return [member.first_name, member.last_name].filter(Boolean).join(' ');
}

/** Why the status last changed: the schedule's codes in words, a person's text as written. */
export function statusReason(reason: string | null): string {
  if (reason === null) return '—';
  return (
    { freeze_started: 'A freeze started', freeze_ended: 'A freeze ended', expired: 'The membership ended' }[
      reason
    ] ?? reason
  );
}
