import { defineProblems } from '../../core/errors.js';

declare module '../../core/errors.js' {
  interface ErrorCodes {
    webhook_endpoint_not_found: true;
    delivery_not_found: true;
    webhook_endpoint_limit: true;
    invalid_webhook_url: true;
  }
}

defineProblems({
  webhook_endpoint_not_found: {
    status: 404,
    title: 'Webhook endpoint not found',
    example: { detail: 'Facility 1 has no webhook endpoint 3' },
  },
  delivery_not_found: {
    status: 404,
    title: 'Webhook delivery not found',
    example: { detail: 'Webhook endpoint 3 has no delivery 981' },
  },
  webhook_endpoint_limit: {
    status: 409,
    title: 'Too many webhook endpoints',
    example: { detail: 'Facility 1 already has its maximum of 20 webhook endpoints (WEBHOOK_MAX_ENDPOINTS)' },
  },
  invalid_webhook_url: {
    status: 422,
    title: 'Webhook URL not allowed',
    example: { detail: 'A webhook URL must use https (http only with WEBHOOK_ALLOW_HTTP=true)' },
  },
});
