import { defineProblems } from '../../core/errors.js';

declare module '../../core/errors.js' {
  interface ErrorCodes {
    freeze_not_found: true;
    freeze_not_allowed: true;
    freeze_overlap: true;
    freeze_limit_exceeded: true;
  }
}

defineProblems({
  freeze_not_found: {
    status: 404,
    title: 'Freeze not found',
    example: { detail: 'Member 42 has no freeze with id 5' },
  },
  freeze_not_allowed: {
    status: 409,
    title: 'Freezing is not allowed',
    example: { detail: "This facility's policy does not allow freezing memberships" },
  },
  freeze_overlap: {
    status: 409,
    title: 'Freeze overlaps another',
    example: { detail: 'The freeze overlaps freeze 5 (2026-03-01 to 2026-03-21)' },
  },
  freeze_limit_exceeded: {
    status: 422,
    title: 'Yearly freeze days exceeded',
    example: {
      detail:
        "The freeze would take 21 days in 2026, but only 14 of the policy's 60 freeze days per year are left",
    },
  },
});
