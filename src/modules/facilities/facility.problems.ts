import { defineProblems } from '../../core/errors.js';

declare module '../../core/errors.js' {
  interface ErrorCodes {
    facility_name_conflict: true;
  }
}

defineProblems({
  facility_name_conflict: {
    status: 409,
    title: 'Facility name already in use',
    example: { detail: 'A facility named "Riverside Sports Centre" already exists (facility 1)' },
  },
});
