import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { type Api, assertProblem, describeEachDialect } from '../../../../test/harness.js';
import { importCsv } from './member-import-api.fixtures.js';

const membersOf = async (api: Api, facility: number) =>
  (await api.get(`/admin/facilities/${facility}/members?limit=1000`)).body.members as Record<
    string,
    unknown
  >[];
const withoutRun = ({ dry_run: _d, written: _w, ...rest }: Record<string, unknown>) => rest;

/**
 * A file as a spreadsheet program saves it: a BOM, semicolons, CRLF, an empty
 * line, a quoted field with a line break and a semicolon, doubled quotes.
 */
const SPREADSHEET_CSV = readFileSync(new URL('./spreadsheet-sample.csv', import.meta.url), 'utf8');

describeEachDialect('members CSV import', (api) => {
  test('a spreadsheet file: the dry run names each problem by row, line and column, and writes nothing', async () => {
    const facility = api.newFacility();
    const dry = await importCsv(api, facility, SPREADSHEET_CSV, '?dry_run=true&on_error=skip');
    assert.equal(dry.status, 200, dry.text);
    assert.deepEqual(dry.body.counts, { rows: 3, created: 2, updated: 0, unchanged: 0, failed: 1 });
    assert.deepEqual(dry.body.errors, [
      { row: 3, line: 6, column: 'email', code: 'validation_error', message: 'must be a valid email' },
    ]);
    assert.equal(dry.body.written, false);
    assert.deepEqual(await membersOf(api, facility), []);
  });

  test('the real run answers what the dry run said, and writes it: quotes, line breaks and separators kept', async () => {
    const facility = api.newFacility();
    const dry = await importCsv(api, facility, SPREADSHEET_CSV, '?dry_run=true&on_error=skip');
    const real = await importCsv(api, facility, SPREADSHEET_CSV, '?on_error=skip');
    assert.deepEqual(withoutRun(real.body), withoutRun(dry.body));
    assert.equal(real.body.written, true);
    const members = await membersOf(api, facility);
    assert.deepEqual(
      members.map((m) => [m.first_name, m.email, m.notes, m.external_id]),
      [
        ['Ada', 'ada@example.com', 'Prefers mornings\r\nNo parking; ever', 'CRM-1'],
        ['Alan', 'alan@example.com', 'Says "hi"', 'CRM-2'],
      ],
    );
  });

  test('on_error=abort: one failing row and nothing is written; the answer lists every problem', async () => {
    const facility = api.newFacility();
    const response = await importCsv(api, facility, SPREADSHEET_CSV);
    assert.equal(response.status, 200);
    assert.equal(response.body.written, false);
    assert.deepEqual(response.body.counts, { rows: 3, created: 2, updated: 0, unchanged: 0, failed: 1 });
    assert.deepEqual(await membersOf(api, facility), []);
    assert.equal((await api.get(`/admin/facilities/${facility}/audit-events`)).body.audit_events.length, 0);
  });

  test('an email twice in one file: the second row is member_email_conflict, as a second POST would be', async () => {
    const facility = api.newFacility();
    const csv = 'first_name,email\nAnn,ann@example.com\nAnna,ANN@example.com\nBo,bo@example.com\n';
    const response = await importCsv(api, facility, csv, '?on_error=skip');
    assert.deepEqual(response.body.errors, [
      {
        row: 2,
        line: 3,
        column: 'email',
        code: 'member_email_conflict',
        message: 'A member with email ANN@example.com already exists in this facility',
      },
    ]);
    assert.deepEqual(
      (await membersOf(api, facility)).map((m) => m.first_name),
      ['Ann', 'Bo'],
    );
  });

  test('match_by=external_id updates the matching member as a PATCH would, creates the rest, and counts unchanged rows', async () => {
    const facility = api.newFacility();
    const ann = await api.post(`/admin/facilities/${facility}/members`, {
      first_name: 'Ann',
      external_id: 'X1',
    });
    const kim = await api.post(`/admin/facilities/${facility}/members`, {
      first_name: 'Kim',
      external_id: 'X2',
    });
    const csv = 'external_id,first_name,last_name\nX1,Ann,Lee\nX2,Kim,\nX3,Jo,Park\n';
    const response = await importCsv(api, facility, csv, '?match_by=external_id');
    assert.deepEqual(response.body.counts, { rows: 3, created: 1, updated: 1, unchanged: 1, failed: 0 });
    const members = await membersOf(api, facility);
    assert.deepEqual(
      members.map((m) => [m.id, m.first_name, m.last_name]),
      [
        [ann.body.id, 'Ann', 'Lee'],
        [kim.body.id, 'Kim', null],
        [members[2].id, 'Jo', 'Park'],
      ],
    );
    const unchanged = await api.get(`/admin/facilities/${facility}/members/${kim.body.id}`);
    assert.equal(unchanged.body.updated_at, kim.body.updated_at);
  });

  test('match_by=email matches ignoring case; a status move follows the status table', async () => {
    const facility = api.newFacility();
    await api.post(`/admin/facilities/${facility}/members`, { first_name: 'Ann', email: 'ann@example.com' });
    const csv = 'email,first_name,status\nANN@example.com,Ann,pending\n';
    const response = await importCsv(api, facility, csv, '?match_by=email');
    assert.deepEqual(response.body.errors, [
      {
        row: 1,
        line: 2,
        column: 'status',
        code: 'invalid_status_transition',
        message: response.body.errors[0]?.message,
      },
    ]);
    assert.match(response.body.errors[0].message, /active to pending/);
  });

  test('a new member with a later status is created active and moved, as a POST and a PATCH would', async () => {
    const facility = api.newFacility();
    const response = await importCsv(api, facility, 'first_name,status\nAnn,frozen\nBo,cancelled\n');
    assert.deepEqual(response.body.counts, { rows: 2, created: 2, updated: 0, unchanged: 0, failed: 0 });
    assert.deepEqual(
      (await membersOf(api, facility)).map((m) => m.status),
      ['frozen', 'cancelled'],
    );
  });

  test("plan capacity holds within the file: the row past the plan's max_members is plan_full", async () => {
    const facility = api.newFacility();
    const plan = await api.post(`/admin/facilities/${facility}/plans`, { name: 'Small', max_members: 1 });
    const csv = `first_name,plan_id\nAnn,${plan.body.id}\nBo,${plan.body.id}\n`;
    const response = await importCsv(api, facility, csv, '?on_error=skip');
    assert.deepEqual(
      response.body.errors.map((e: { row: number; column: string; code: string }) => [
        e.row,
        e.column,
        e.code,
      ]),
      [[2, 'plan_id', 'plan_full']],
    );
  });

  test('every created or updated member is in the audit trail', async () => {
    const facility = api.newFacility();
    await importCsv(api, facility, 'first_name,external_id\nAnn,A\nBo,B\n');
    await importCsv(api, facility, 'first_name,external_id\nAnna,A\n', '?match_by=external_id');
    const events = (await api.get(`/admin/facilities/${facility}/audit-events`)).body.audit_events;
    assert.deepEqual(events.map((e: { action: string }) => e.action).sort(), ['create', 'create', 'update']);
  });

  test('external_id is unique per facility among members not removed: 409 member_external_id_conflict', async () => {
    const facility = api.newFacility();
    const url = `/admin/facilities/${facility}/members`;
    const first = await api.post(url, { first_name: 'Ann', external_id: 'E-1' });
    assertProblem(
      await api.post(url, { first_name: 'Bo', external_id: 'E-1' }),
      409,
      'member_external_id_conflict',
    );
    await api.delete(`${url}/${first.body.id}`);
    assert.equal((await api.post(url, { first_name: 'Bo', external_id: 'E-1' })).status, 201);
  });

  test('an Idempotency-Key replays the first report and imports once', async () => {
    const facility = api.newFacility();
    const key = { 'idempotency-key': 'import-1' };
    const first = await importCsv(api, facility, 'first_name\nAnn\n', '', key);
    const again = await importCsv(api, facility, 'first_name\nAnn\n', '', key);
    assert.deepEqual(again.body, first.body);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal((await membersOf(api, facility)).length, 1);
    assertProblem(await importCsv(api, facility, 'first_name\nBo\n', '', key), 422, 'idempotency_key_reused');
    const dryRunWithTheKey = await importCsv(api, facility, 'first_name\nAnn\n', '?dry_run=true', key);
    assertProblem(dryRunWithTheKey, 422, 'idempotency_key_reused');
  });
});
