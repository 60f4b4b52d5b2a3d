import { defineProblems } from '../../../core/errors.js';

declare module '../../../core/errors.js' {
  interface ErrorCodes {
    credential_not_found: true;
    credential_conflict: true;
    credential_limit_reached: true;
  }
}

defineProblems({
  credential_not_found: {
    status: 404,
    title: 'Credential not found',
    example: { detail: 'Member 42 has no credential with id 9' },
  },
  credential_conflict: {
    status: 409,
    title: 'Credential value already in use',
    example: { detail: 'Another credential of this facility that is not revoked has this value' },
  },
  credential_limit_reached: {
    status: 409,
    title: 'Too many credentials',
    example: { detail: 'Member 42 already has 20 credentials that are not revoked; revoke one first' },
  },
});
