import type { Member } from '@facility-admin/client';

/** The statuses a member may move to now, as the service says (status table and policy). */
export function allowedTransitions(member: Member): string[] {
  return member.allowed_transitions;
}

/** The button's words for a move. */
export function moveLabel(from: string, to: string): string {
  if (from === 'removed') return to === 'active' ? 'Restore as active' : 'Restore as pending';
  return (
    { active: 'Activate', frozen: 'Freeze', suspended: 'Suspend', cancelled: 'Cancel membership' }[to] ??
    `Set ${to}`
  );
}

export const STATUSES = ['pending', 'active', 'frozen', 'suspended', 'cancelled', 'removed'] as const;
export const ROLES = ['member', 'coach', 'staff', 'admin'] as const;

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
