import { defineProblems } from '../../core/errors.js';

declare module '../../core/errors.js' {
  interface ErrorCodes {
    staff_not_found: true;
    staff_email_conflict: true;
    staff_state_conflict: true;
    link_not_usable: true;
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
  staff_state_conflict: {
    status: 409,
    title: 'Not possible in this state',
    example: { detail: 'Staff user 4 is active: only an invited person gets an invitation' },
  },
});
