import createFetchClient from 'openapi-fetch';
import { accessOperations } from './access.js';
import { credentialOperations } from './credentials.js';
import { freezeOperations } from './freezes.js';
import { auditEventOperations, templateOperations } from './lists.js';
import { memberCsvOperations } from './member-csv.js';
import { memberOperations } from './members.js';
import { type Page, paginate } from './paginate.js';
import { apiKeyOperations, facilityOperations, sessionOperations, staffOperations } from './people.js';
import { entitlementOperations, planOperations } from './plans.js';
import { policyOperations } from './policy.js';
import type { paths } from './schema.js';
import { type Fetch, type RetryOptions, retryingFetch } from './transport.js';
import { eventOperations, webhookOperations } from './webhooks.js';

export interface ClientOptions {
  /** Where the service is, with its BASE_PATH if it has one: `https://admin.example.com/api/v1`. */
  baseUrl: string;
  /**
   * An API key, sent as `Authorization: Bearer <key>`. Without one, requests
   * carry what the browser sends: the console's session cookie, same-origin.
   */
  apiKey?: string;
  /** The fetch to send requests with; the global fetch by default. */
  fetch?: Fetch;
  /** How to retry network errors, 409 `idempotency_in_progress`, 429 and 503; a number is `max`. */
  retries?: number | RetryOptions;
}

/**
 * A client of the facility-admin API: one method per operation, typed from
 * the OpenAPI document. Reads and writes of one resource return it with its
 * ETag; failures throw a `ProblemError`.
 */
export function createClient(options: ClientOptions) {
  const retries = typeof options.retries === 'number' ? { max: options.retries } : options.retries;
  const fetchOnce: Fetch = options.fetch ?? ((request) => globalThis.fetch(request));
  const api = createFetchClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    fetch: retryingFetch(fetchOnce, retries),
    headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {},
  });
  return {
    plans: planOperations(api),
    entitlements: entitlementOperations(api),
    members: memberOperations(api),
    freezes: freezeOperations(api),
    credentials: credentialOperations(api),
    ...memberCsvOperations(api),
    policy: policyOperations(api),
    ...accessOperations(api),
    templates: templateOperations(api),
    auditEvents: auditEventOperations(api),
    session: sessionOperations(api),
    facilities: facilityOperations(api),
    staff: staffOperations(api),
    apiKeys: apiKeyOperations(api),
    events: eventOperations(api),
    webhooks: webhookOperations(api),
    /** Every item of a list, page after page: `listPage` gets the page that starts at `cursor`. */
    paginate: <P extends Page>(listPage: (cursor: string | undefined) => Promise<P>) => paginate(listPage),
  };
}

export type Client = ReturnType<typeof createClient>;
