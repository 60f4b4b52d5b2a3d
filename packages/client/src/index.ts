export type { CheckInListQuery } from './access.js';
export { type Client, type ClientOptions, createClient } from './client.js';
export type { CredentialListQuery } from './credentials.js';
export type { FreezeListQuery } from './freezes.js';
export type { AuditEventListQuery, TemplateListQuery } from './lists.js';
export {
  type MemberExportQuery,
  MemberImportFailed,
  type MemberImportListQuery,
  type MemberImportOptions,
  type MemberImportQuery,
  type MembersCsvBody,
} from './member-csv.js';
export type { MemberListQuery } from './members.js';
export { type ItemOf, type Page, paginate } from './paginate.js';
export type { ApiKeyListQuery, FacilityListQuery, StaffListQuery } from './people.js';
export type { PlanListQuery } from './plans.js';
export { type ProblemCode, ProblemError } from './problem.js';
export type { CreateOptions, DeleteOptions, WriteOptions } from './requests.js';
export type { Versioned } from './results.js';
// Every schema as a type, and every enum's values as an array (memberStatusValues, …): both from openapi.json.
export * from './schema.js';
export type { Fetch, RetryOptions } from './transport.js';
export {
  type EventFeedQuery,
  verifyWebhook,
  type WebhookDeliveryListQuery,
  type WebhookMessage,
} from './webhooks.js';
