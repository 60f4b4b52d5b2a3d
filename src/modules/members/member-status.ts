/**
 * A member's statuses and the moves between them: one table that the rules
 * check (member.rules.ts) and the OpenAPI description shows (member.schemas.ts).
 */
export const MEMBER_STATUSES = ['pending', 'active', 'frozen', 'suspended', 'cancelled', 'removed'] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];

/** Where each status may move by PATCH. `removed` is reached only by DELETE. */
export const STATUS_MOVES: Record<MemberStatus, readonly MemberStatus[]> = {
  pending: ['active', 'cancelled'],
  active: ['frozen', 'suspended', 'cancelled'],
  frozen: ['active', 'cancelled'],
  suspended: ['active', 'cancelled'],
  cancelled: ['active'],
  removed: ['pending', 'active'],
};

/** The status table as the OpenAPI description of `status` shows it, made from the rules themselves. */
export function statusMovesDescription(): string {
  const rows = Object.entries(STATUS_MOVES).map(([from, to]) => `| ${from} | ${to.join(', ')} |`);
  return [
    'Moves by PATCH (the same status again changes nothing):',
    '',
    '| from | to |',
    '|---|---|',
    ...rows,
    '',
    "Any other move is 409 `invalid_status_transition`. To `frozen` while the policy's `allow_freeze` is " +
      'false is 409 `freeze_not_allowed`. `removed` is reached only by DELETE; a PATCH from `removed` ' +
      'restores the member and clears `deleted_at`. The service moves members by date too: `active` to ' +
      '`frozen` when a freeze starts, back to `active` when it ends, and to `cancelled` the day after ' +
      '`ends_on` (with `status_reason` `freeze_started`, `freeze_ended`, `expired`).',
  ].join('\n');
}
