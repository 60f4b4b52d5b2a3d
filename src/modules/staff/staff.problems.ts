import { defineProblems } from '../../core/errors.js';

declare module '../../core/errors.js' {
  interface ErrorCodes {
    staff_not_found: true;
    staff_email_conflict: true;
    staff_state_conflict: true;
    link_not_usable: true;
    person_only: true;
    current_password_wrong: true;
    session_not_found: true;
  }
}

defineProblems({
  staff_not_found: {
    status: 404,
    title: 'Staff user not found',
    example: { detail: 'There is no staff user 4 that you may see' },
  },
  staff_email_conflict: {
    status: 409,
    title: 'E-mail already in use',
    example: { detail: 'A staff user with the e-mail dana.reyes@riverside.example already exists' },
  },
  link_not_usable: {
    status: 410,
    title: 'Link not usable',
    example: { detail: 'This link was used already, has expired, or was never issued: ask for a new one' },
  },
  person_only: {
    status: 403,
    title: 'Only for a person signed in',
    example: {
      detail:
        'Changing a password is for a person signed in to the console; an API key has no password nor sessions',
    },
  },
  current_password_wrong: {
    status: 403,
    title: 'Current password not right',
    example: { detail: 'The current password is not right' },
  },
  session_not_found: {
    status: 404,
    title: 'Session not found',
    example: { detail: 'You have no session 12' },
  },
  staff_state_conflict: {
    status: 409,
    title: 'Not possible in this state',
    example: { detail: 'Staff user 4 is active: only an invited person gets an invitation' },
  },
});
