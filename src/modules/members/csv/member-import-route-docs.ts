/** What the OpenAPI document says of POST …/members/import: its rules, in one place. */
export const IMPORT_ROUTE_DESCRIPTION =
  'Starts a job that reads a CSV file of members (`MembersCsv`) and creates or updates a member per row, and ' +
  'answers 202 with the job (`MemberImport`) and its `Location`; follow it with `getMemberImport` until it is ' +
  '`succeeded` (its `report` says what each row did) or `failed`. With `wait` (up to 30 s) the answer waits ' +
  'for the job to finish: a small file comes back with its report, still 202. Each row is checked exactly as ' +
  'a POST (a new member) or a PATCH (a match, see `match_by`) of its fields would be, with the same codes: ' +
  'email and `external_id` unique in the facility and within the file (a row that repeats an earlier row’s ' +
  'is `member_email_conflict` or `member_external_id_conflict`), plan capacity (`plan_full`), the status ' +
  'moves, `member_too_young`, …; a new member with a status other than pending or active is created active ' +
  'and then moved. The report lists each failing row (`row`, `line`, `column`, `code`, `message`) and ' +
  'counts. `dry_run=true` checks every row and writes nothing; its report is the real run’s as long as ' +
  'nobody else changes the facility in between. `on_error=abort` checks every row first and writes only if ' +
  'all pass; `on_error=skip` writes the good rows. Each row written is in the audit trail with the key as ' +
  'actor. Before the body is read: 409 `import_in_progress` while the facility has an unfinished import ' +
  '(one at a time), 503 `service_unavailable` with Retry-After when the process receives IMPORT_UPLOADS ' +
  'uploads already or IMPORT_MAX_QUEUED jobs wait, 413 `payload_too_large` for a declared length over ' +
  'IMPORT_MAX_BYTES. While the body streams in: 413 past IMPORT_MAX_BYTES (10 MiB), and 400 `invalid_csv` ' +
  'for a file that is not such a CSV, names an unknown column, or holds more than IMPORT_MAX_ROWS (50,000) ' +
  'rows. An `Idempotency-Key` makes a retry answer the first 202 again (the same job).';
