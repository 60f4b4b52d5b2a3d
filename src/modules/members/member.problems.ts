import { defineProblems, type ErrorCode } from '../../core/errors.js';

declare module '../../core/errors.js' {
  interface ErrorCodes {
    member_not_found: true;
    member_email_conflict: true;
    member_external_id_conflict: true;
    plan_full: true;
    invalid_status_transition: true;
    invalid_plan: true;
    member_too_young: true;
    waiver_required: true;
  }
}

defineProblems({
  member_not_found: {
    status: 404,
    title: 'Member not found',
    example: { detail: 'Facility 1 has no member with id 42' },
  },
  member_email_conflict: {
    status: 409,
    title: 'Member email already in use',
    example: { detail: 'A member with email ada@example.com already exists in this facility' },
  },
  member_external_id_conflict: {
    status: 409,
    title: 'Member external_id already in use',
    example: { detail: 'A member with external_id CRM-1042 already exists in this facility' },
  },
  plan_full: {
    status: 409,
    title: 'Plan is full',
    example: { detail: 'Plan 7 already has its maximum of 200 members' },
  },
  invalid_status_transition: {
    status: 409,
    title: 'Status change not allowed',
    example: {
      detail: 'A member cannot move from cancelled to frozen; from cancelled it can move to: active',
    },
  },
  invalid_plan: { status: 422, title: 'Plan cannot be used', example: { detail: 'Plan 7 is not active' } },
  member_too_young: {
    status: 422,
    title: 'Member is too young',
    example: { detail: 'Members of this facility must be at least 16 years old' },
  },
  waiver_required: {
    status: 422,
    title: 'Waiver not signed',
    example: {
      detail:
        "This facility's policy requires a signed waiver: set waiver_signed_at before the member becomes active",
    },
  },
});

/** What a new member's fields and plan can be refused for: codes of its POST, and of an import's rows. */
export const MEMBER_FIELD_PROBLEMS = [
  'member_email_conflict',
  'member_external_id_conflict',
  'plan_full',
  'invalid_plan',
  'member_too_young',
  'waiver_required',
] as const satisfies readonly ErrorCode[];
