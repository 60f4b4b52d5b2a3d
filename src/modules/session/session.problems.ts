import { defineProblems } from '../../core/errors.js';

declare module '../../core/errors.js' {
  interface ErrorCodes {
    cross_site_request: true;
  }
}

/** Refused by the authentication (src/http/auth.ts) and by the sign-in routes. */
defineProblems({
  cross_site_request: {
    status: 403,
    title: 'Cross-site request refused',
    example: {
      detail:
        'A request signed in by the session cookie that changes something must come from the console itself',
    },
  },
});
