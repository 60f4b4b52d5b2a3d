import { defineProblems } from '../../core/errors.js';

declare module '../../core/errors.js' {
  interface ErrorCodes {
    check_in_not_found: true;
    check_in_denied: true;
  }
}

defineProblems({
  check_in_not_found: {
    status: 404,
    title: 'Check-in not found',
    example: { detail: 'Facility 1 has no check-in with id 9120' },
  },
  check_in_denied: {
    status: 409,
    title: 'A denied check-in cannot be checked out',
    example: { detail: 'Check-in 9121 was denied: nobody came in, so nobody can be checked out' },
  },
});
