export {
  type AuditEventListQuery,
  type Client,
  type ClientOptions,
  type CreateOptions,
  createClient,
  type DeleteOptions,
  type MemberListQuery,
  type PlanListQuery,
  type TemplateListQuery,
  type WriteOptions,
} from './client.js';
export { type ItemOf, type Page, paginate } from './paginate.js';
export { type ProblemCode, ProblemError } from './problem.js';
export type { Versioned } from './results.js';
export type * from './schema.js';
export type { Fetch, RetryOptions } from './transport.js';
