import { defineProblems } from '../../core/errors.js';

declare module '../../core/errors.js' {
  interface ErrorCodes {
    api_key_not_found: true;
  }
}

defineProblems({
  api_key_not_found: {
    status: 404,
    title: 'API key not found',
    example: { detail: 'There is no API key 3 that you may see' },
  },
});
