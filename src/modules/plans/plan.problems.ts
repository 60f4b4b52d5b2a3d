import { defineProblems } from '../../core/errors.js';

declare module '../../core/errors.js' {
  interface ErrorCodes {
    plan_not_found: true;
    entitlement_not_found: true;
    plan_name_conflict: true;
    plan_archived: true;
    plan_in_use: true;
    invalid_template: true;
  }
}

defineProblems({
  plan_not_found: {
    status: 404,
    title: 'Plan not found',
    example: { detail: 'Facility 1 has no plan with id 7' },
  },
  entitlement_not_found: {
    status: 404,
    title: 'Entitlement not found',
    example: { detail: 'Plan 7 has no entitlement "towel"' },
  },
  plan_name_conflict: {
    status: 409,
    title: 'Plan name already in use',
    example: { detail: 'A plan named "Adult monthly" already exists in this facility' },
  },
  plan_archived: {
    status: 409,
    title: 'Plan is archived',
    example: {
      detail:
        'Plan 7 is archived (soft-deleted): it can only be restored, with a PATCH of exactly {"is_active": true}',
    },
  },
  plan_in_use: {
    status: 409,
    title: 'Plan is in use',
    example: { detail: 'Plan 7 is referred to by members (removed ones included); it can only be archived' },
  },
  invalid_template: {
    status: 422,
    title: 'Template not found',
    example: { detail: 'There is no plan template with id 99' },
  },
});
