import { defineProblems } from '../../../core/errors.js';

declare module '../../../core/errors.js' {
  interface ErrorCodes {
    invalid_csv: true;
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
});
