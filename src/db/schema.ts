import type { Generated } from 'kysely';

/**
 * Table types, as rows come back from either dialect. Booleans are stored as
 * 0/1 integers on both databases so that one mapper serves both; timestamps
 * are ISO strings (the PostgreSQL pool parses timestamptz to ISO, see
 * database.ts) and dates are `YYYY-MM-DD` strings.
 */
export interface PlansTable {
  id: Generated<number>;
  facility_id: number;
  name: string;
  /** Lower-cased name; a partial unique index makes names unique per facility. */
  name_folded: string;
  description: string | null;
  sport_id: number | null;
  template_id: number | null;
  price_amount: number;
  currency: string;
  billing_period: string;
  duration_days: number | null;
  joining_fee_amount: number;
  max_members: number | null;
  is_active: number;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  /** Counts writes to the plan's entitlements (part of their ETag). */
  entitlements_version: Generated<number>;
}

export interface EntitlementsTable {
  plan_id: number;
  key: string;
  /** JSON text, so a value comes back with the JSON type it was stored with. */
  value_json: string;
}

export interface MembersTable {
  id: Generated<number>;
  facility_id: number;
  first_name: string;
  last_name: string | null;
  email: string | null;
  /** Lower-cased email; a partial unique index makes it unique per facility. */
  email_folded: string | null;
  phone: string | null;
  date_of_birth: string | null;
  sport_id: number | null;
  role: string;
  status: string;
  plan_id: number | null;
  joined_on: string;
  notes: string | null;
  /** The member's id in the facility's previous system; unique per facility among members not removed. */
  external_id: string | null;
  status_changed_at: string;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  /** The last day of the membership; the day after, the schedule cancels it. */
  ends_on: string | null;
  status_reason: string | null;
  waiver_signed_at: string | null;
  /** First date (facility time zone) on which a scheduled change is due; null when none is. */
  next_change_on: string | null;
  /** When the member was last allowed in (migration 0040). */
  last_check_in_at: string | null;
  /** What `q` searches, folded; written with the member (migration 0041, search/member-search-text.ts). */
  search_text: Generated<string>;
}

export interface MemberFreezesTable {
  id: Generated<number>;
  facility_id: number;
  member_id: number;
  starts_on: string;
  /** Null for an open-ended freeze (a PATCH to frozen), until the member is active again. */
  ends_on: string | null;
  reason: string | null;
  state: 'scheduled' | 'under_way' | 'ended' | 'cancelled';
  created_at: string;
  cancelled_at: string | null;
}

export interface PoliciesTable {
  facility_id: number;
  timezone: string;
  currency: string;
  booking_window_days: number;
  cancellation_cutoff_hours: number;
  late_cancellation_fee_amount: number;
  no_show_fee_amount: number;
  max_active_bookings: number;
  guest_passes_per_month: number;
  allow_freeze: number;
  max_freeze_days_per_year: number;
  min_member_age: number;
  require_waiver: number;
  /** JSON (migration 0040): weekday → [{ opens, closes }]; null: always open. */
  opening_hours: string | null;
  /** JSON: [{ starts_on, ends_on, reason }]. */
  closures: string;
  max_occupancy: number | null;
  anti_passback_minutes: number;
  visit_limit_mode: string;
  week_starts_on: string;
  occupancy_cutoff_minutes: number;
  created_at: string;
  updated_at: string;
}

export interface DatabaseSchema {
  plans: PlansTable;
  entitlements: EntitlementsTable;
  members: MembersTable;
  member_freezes: MemberFreezesTable;
  policies: PoliciesTable;
  api_keys: ApiKeysTable;
  idempotency_keys: IdempotencyKeysTable;
  audit_events: AuditEventsTable;
  periodic_jobs: PeriodicJobsTable;
  events: EventsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  member_imports: MemberImportsTable;
  member_import_chunks: MemberImportChunksTable;
  member_import_writes: MemberImportWritesTable;
  facilities: FacilitiesTable;
  staff_users: StaffUsersTable;
  staff_roles: StaffRolesTable;
  staff_sessions: StaffSessionsTable;
  staff_links: StaffLinksTable;
  member_credentials: MemberCredentialsTable;
  check_ins: CheckInsTable;
}

export interface ApiKeysTable {
  id: Generated<number>;
  name: string;
  role: string;
  /** JSON array of facility ids, or null for every facility. */
  facility_ids: string | null;
  /** SHA-256 of the secret; the secret itself is never stored. */
  secret_hash: string;
  created_at: string;
  revoked_at: string | null;
}

export interface IdempotencyKeysTable {
  /** Whose key it is: `key:<api key id>`, or `anonymous` when authentication is off. */
  scope: string;
  idempotency_key: string;
  /** SHA-256 of method, path and body: the same key with another request is refused. */
  request_hash: string;
  /** Null while the first request is in flight. */
  response_status: number | null;
  response_body: string | null;
  response_location: string | null;
  /** The ETag sent with the answer, if any. */
  response_etag: string | null;
  created_at: string;
  completed_at: string | null;
}

export interface AuditEventsTable {
  id: Generated<number>;
  facility_id: number;
  resource_type: string;
  resource_id: string;
  action: string;
  api_key_id: number | null;
  api_key_name: string;
  /** The staff user who did it, signed in to the console; null for an API key or the service. */
  staff_user_id: number | null;
  /** JSON object: field → {before, after}. */
  changes: string;
  request_id: string | null;
  occurred_at: string;
}

/** A periodic job's schedule and lease (src/jobs/). */
export interface PeriodicJobsTable {
  name: string;
  next_run_at: string;
  /** While a process runs the job; a run that outlives it (a crashed process) may be taken over. */
  leased_until: string | null;
  last_started_at: string | null;
  last_finished_at: string | null;
  /** The last run's error message, null when it succeeded. */
  last_error: string | null;
}

/** The change feed (src/modules/events/). */
export interface EventsTable {
  id: Generated<number>;
  facility_id: number;
  type: string;
  /** `plan:7`, `member:42`, `policy:1`. */
  resource: string;
  occurred_at: string;
  /** JSON object: the resource after the change. */
  data: string;
  /** JSON: who did it ({type, id, name}); null for events written before actors were recorded. */
  actor: string | null;
}

/** A facility's webhook endpoint (src/modules/webhooks/). */
export interface WebhookEndpointsTable {
  id: Generated<number>;
  facility_id: number;
  url: string;
  description: string | null;
  /** JSON array of event types; empty: every type. */
  types: string;
  enabled: number;
  disabled_reason: string | null;
  /** Encrypted (src/infrastructure/secrets/). */
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
  failing_since: string | null;
  created_at: string;
  updated_at: string;
  /** The id of the last event of its facility handled for it (delivered, parked or not wanted). */
  cursor: Generated<number>;
  /** While a process serves it: its lease (a process that dies leaves it to be served again after). */
  locked_until: Generated<string | null>;
  /** When a process last took it: the least recently served endpoint goes first. */
  last_served_at: Generated<string | null>;
  /** Failed attempts in a row; past a few, new events wait until a retry succeeds. */
  consecutive_failures: Generated<number>;
}

/** One message to one endpoint, with its attempts. */
export interface WebhookDeliveriesTable {
  id: Generated<number>;
  endpoint_id: number;
  event_id: number | null;
  message_id: string;
  type: string;
  resource: string;
  /** A test ping's message; null for an event's delivery, whose message is the event. */
  payload: string | null;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: Generated<number>;
  next_attempt_at: string;
  locked_until: string | null;
  last_attempt_at: string | null;
  last_response_status: number | null;
  last_error: string | null;
  created_at: string;
}

/** A CSV import of members as a job (src/modules/members/csv/, migration 0033). */
export interface MemberImportsTable {
  id: Generated<number>;
  facility_id: number;
  /** `receiving` while its body streams in (never shown); then queued, running, succeeded or failed. */
  state: 'receiving' | 'queued' | 'running' | 'succeeded' | 'failed';
  /** What a running job does: checks every row without writing, writes, or undoes what it wrote. */
  phase: 'checking' | 'writing' | 'undoing' | null;
  dry_run: number;
  match_by: string;
  on_error: string;
  api_key_id: number | null;
  staff_user_id: number | null;
  api_key_name: string;
  request_id: string | null;
  bytes: Generated<number>;
  rows_total: number | null;
  /** Rows of the current phase done; when writing, committed with the rows themselves. */
  rows_done: Generated<number>;
  created: Generated<number>;
  updated: Generated<number>;
  unchanged: Generated<number>;
  failed: Generated<number>;
  errors_omitted: Generated<number>;
  /** JSON array of the row errors listed so far. */
  errors: Generated<string>;
  /** JSON of the finished job's report. */
  report: string | null;
  error_code: string | null;
  error_message: string | null;
  /** How many times a process took the job. */
  attempts: Generated<number>;
  /** Which claim holds the lease: a process whose claim was taken over finds it changed and stops. */
  lease_token: string | null;
  locked_until: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  expires_at: string | null;
}

/** The bytes of an import's upload, in order, until the job ends. */
export interface MemberImportChunksTable {
  import_id: number;
  seq: number;
  bytes: Buffer;
}

/** A row an `on_error=abort` import wrote: what undoing it needs. */
export interface MemberImportWritesTable {
  import_id: number;
  row: number;
  member_id: number;
  /** JSON `{member, freezes}` before the row's PATCH; null for a member the row created. */
  before: string | null;
}

/** Table types of people (migration 0034): facilities, staff users, their roles, sessions and links. */

export interface FacilitiesTable {
  id: number;
  name: string | null;
  /** The name in lower case: unique among facilities that are not archived. */
  name_folded: string | null;
  address: string | null;
  contact_email: string | null;
  phone: string | null;
  archived_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface StaffUsersTable {
  id: Generated<number>;
  email: string;
  email_folded: string;
  name: string;
  state: string;
  /** Argon2id (src/infrastructure/passwords/); null until the person sets a password. */
  password_hash: string | null;
  password_changed_at: string | null;
  last_sign_in_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface StaffRolesTable {
  staff_user_id: number;
  /** Null: every facility. */
  facility_id: number | null;
  role: string;
}

export interface StaffSessionsTable {
  id: Generated<number>;
  /** SHA-256 of the cookie's secret. */
  secret_hash: string;
  staff_user_id: number;
  method: string;
  user_agent: string | null;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
}

export interface StaffLinksTable {
  /** SHA-256 of the link's secret. */
  secret_hash: string;
  purpose: string;
  staff_user_id: number | null;
  data: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** At the door (migration 0040). */
export interface MemberCredentialsTable {
  id: Generated<number>;
  facility_id: number;
  member_id: number;
  type: string;
  /** SHA-256 (hex) of the value: the value itself is shown only in the create answer. */
  value_hash: string;
  value_last4: string;
  label: string | null;
  created_at: string;
  revoked_at: string | null;
}

export interface CheckInsTable {
  id: Generated<number>;
  facility_id: number;
  member_id: number | null;
  credential_id: number | null;
  credential_last4: string | null;
  area: string | null;
  guests: number;
  decision: string;
  /** JSON array of the decision's reasons. */
  reasons: string;
  /** JSON: the actor, as the journal names it. */
  actor: string;
  checked_in_at: string;
  checked_out_at: string | null;
}
