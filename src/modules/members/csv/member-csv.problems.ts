import { defineProblems } from '../../../core/errors.js';

declare module '../../../core/errors.js' {
  interface ErrorCodes {
    invalid_csv: true;
    import_not_found: true;
    import_in_progress: true;
  }
}

defineProblems({
  invalid_csv: {
    status: 400,
    title: 'Body is not a CSV file this service can read',
    example: {
      detail:
        'Line 1: unknown column "nickname"; the columns are the member fields (first_name, last_name, email, …)',
    },
  },
  import_not_found: {
    status: 404,
    title: 'Member import not found',
    example: { detail: 'Facility 1 has no member import with id 17' },
  },
  import_in_progress: {
    status: 409,
    title: 'An import of this facility is not finished',
    example: {
      detail:
        'Facility 1 has an import that is not finished (running): /admin/facilities/1/members/imports/17; ' +
        'one import of a facility runs at a time',
    },
  },
});
