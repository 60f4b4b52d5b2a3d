import type { Member } from '@facility-admin/client';

/** The moves the contract allows, for a service that does not answer `allowed_transitions` itself. */
const MOVES: Record<string, string[]> = {
  pending: ['active', 'cancelled'],
  active: ['frozen', 'suspended', 'cancelled'],
  frozen: ['active', 'cancelled'],
  suspended: ['active', 'cancelled'],
  cancelled: ['active'],
  removed: ['pending', 'active'],
};

/** The statuses a member may move to now: the service's own list when it sends one, else the contract's. */
export function allowedTransitions(member: Member): string[] {
  const fromService = (member as Member & { allowed_transitions?: unknown }).allowed_transitions;
  if (Array.isArray(fromService)) return fromService.filter((s): s is string => typeof s === 'string');
  return MOVES[member.status] ?? [];
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
