import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { type Api, assertInvalid, describeEachDialect } from '../../../../test/harness.js';
import { importCsv } from './member-import-api.fixtures.js';

const exportUrl = (facility: number, query = '') =>
  `/admin/facilities/${facility}/members/export.csv${query}`;
const membersOf = async (api: Api, facility: number) =>
  (await api.get(`/admin/facilities/${facility}/members?limit=1000`)).body.members as Record<
    string,
    unknown
  >[];
const rowsOf = (text: string) => parse(text, { bom: true, columns: true }) as Record<string, string>[];

describeEachDialect('members CSV export', (api) => {
  test('a CSV attachment: BOM, a header of the member fields, a row a member in id order', async () => {
    const facility = api.newFacility();
    const url = `/admin/facilities/${facility}/members`;
    await api.post(url, {
      first_name: 'Ann',
      last_name: 'Lee',
      email: 'ann@example.com',
      notes: 'a, "b"\nc',
    });
    await api.post(url, { first_name: 'Bo' });
    const response = await api.get(exportUrl(facility));
    assert.equal(response.status, 200);
    assert.equal(response.headers['content-type'], 'text/csv; charset=utf-8');
    assert.equal(
      response.headers['content-disposition'],
      `attachment; filename="members-facility-${facility}.csv"`,
    );
    assert.ok(response.text.startsWith('\uFEFFid,facility_id,first_name,last_name,email,'));
    const rows = rowsOf(response.text);
    assert.deepEqual(
      rows.map((row) => [row.first_name, row.last_name, row.email, row.notes]),
      [
        ['Ann', 'Lee', 'ann@example.com', 'a, "b"\nc'],
        ['Bo', '', '', ''],
      ],
    );
  });

  test("the list's filters apply: status, role, plan_id and q", async () => {
    const facility = api.newFacility();
    const url = `/admin/facilities/${facility}/members`;
    const plan = await api.post(`/admin/facilities/${facility}/plans`, { name: 'Gold' });
    await api.post(url, { first_name: 'Ann', role: 'coach', plan_id: plan.body.id });
    await api.post(url, { first_name: 'Bo', status: 'pending' });
    await api.post(url, { first_name: 'Cy', last_name: 'Annex' });
    const names = async (query: string) =>
      rowsOf((await api.get(exportUrl(facility, query))).text).map((r) => r.first_name);
    assert.deepEqual(await names('?status=pending'), ['Bo']);
    assert.deepEqual(await names('?role=coach'), ['Ann']);
    assert.deepEqual(await names(`?plan_id=${plan.body.id}`), ['Ann']);
    assert.deepEqual(await names('?q=ann'), ['Ann', 'Cy']);
    assertInvalid(await api.get(exportUrl(facility, '?status=nope')), 'status');
  });

  test("a value a spreadsheet would run as a formula is written with a leading '", async () => {
    const facility = api.newFacility();
    const url = `/admin/facilities/${facility}/members`;
    await api.post(url, { first_name: '=HYPERLINK("http://x")', phone: '+49 30 1234', notes: '@SUM(A1)' });
    await api.post(url, { first_name: '-2+3', notes: '\tTAB' });
    const rows = rowsOf((await api.get(exportUrl(facility))).text);
    assert.deepEqual(
      rows.map((row) => [row.first_name, row.phone, row.notes]),
      [
        ['\'=HYPERLINK("http://x")', "'+49 30 1234", "'@SUM(A1)"],
        ["'-2+3", '', "'\tTAB"],
      ],
    );
  });

  test('a value holding a semicolon is quoted: a spreadsheet that splits on ; sees no cell that starts a formula', async () => {
    const facility = api.newFacility();
    const url = `/admin/facilities/${facility}/members`;
    await api.post(url, { first_name: 'Ann', notes: 'x;=1+1;' });
    await api.post(url, { first_name: 'Bo', last_name: 'a;@SUM(A1)', notes: '=2+2' });
    const text = (await api.get(exportUrl(facility))).text;
    // German, French or Dutch Excel splits on the semicolon, a quote counting only at the start of a cell.
    const asSemicolonExcel = parse(text, {
      bom: true,
      delimiter: ';',
      relax_quotes: true,
      relax_column_count: true,
    }) as string[][];
    assert.deepEqual(
      asSemicolonExcel.flat().filter((cell) => /^[=+\-@\t\r]/.test(cell)),
      [],
    );
    // A comma spreadsheet shows each value whole, quoted, every would-be formula after a '.
    assert.deepEqual(
      rowsOf(text).map((row) => [row.last_name, row.notes]),
      [
        ['', "x;'=1+1;"],
        ["a;'@SUM(A1)", "'=2+2"],
      ],
    );
    assert.match(text, /,"x;'=1\+1;",/);
    // And an import reads each back as it was.
    const target = api.newFacility();
    await importCsv(api, target, text);
    assert.deepEqual(
      (await membersOf(api, target)).map((m) => [m.last_name, m.notes]),
      [
        [null, 'x;=1+1;'],
        ['a;@SUM(A1)', '=2+2'],
      ],
    );
  });

  test("a value that starts with ' is written with one more, and imports back as it was", async () => {
    const source = api.newFacility();
    const url = `/admin/facilities/${source}/members`;
    await api.post(url, { first_name: "'Quoted", last_name: "'=not a formula", notes: "''two" });
    const csv = (await api.get(exportUrl(source))).text;
    assert.deepEqual(
      rowsOf(csv).map((row) => [row.first_name, row.last_name, row.notes]),
      [["''Quoted", "''=not a formula", "'''two"]],
    );
    const target = api.newFacility();
    const imported = await importCsv(api, target, csv);
    assert.deepEqual(imported.body.counts, { rows: 1, created: 1, updated: 0, unchanged: 0, failed: 0 });
    assert.deepEqual(
      (await membersOf(api, target)).map((m) => [m.first_name, m.last_name, m.notes]),
      [["'Quoted", "'=not a formula", "''two"]],
    );
  });

  test('an export imports back: into an empty facility the same members, into the same one nothing changes', async () => {
    const source = api.newFacility();
    const url = `/admin/facilities/${source}/members`;
    await api.post(url, { first_name: 'Ann', email: 'ann@example.com', phone: '+1 555', external_id: 'A-1' });
    await api.post(url, { first_name: '=Bo', notes: 'two\r\nlines; "quoted"', external_id: 'A-2' });
    const kim = await api.post(url, { first_name: 'Kim', external_id: 'A-3', date_of_birth: '1990-02-03' });
    await api.patch(`${url}/${kim.body.id}`, { status: 'cancelled' });
    const csv = (await api.get(exportUrl(source))).text;

    const target = api.newFacility();
    const imported = await importCsv(api, target, csv, '?match_by=external_id');
    assert.deepEqual(imported.body.counts, { rows: 3, created: 3, updated: 0, unchanged: 0, failed: 0 });
    const fieldsOf = (member: Record<string, unknown>) => {
      const {
        id: _i,
        facility_id: _f,
        created_at: _c,
        updated_at: _u,
        status_changed_at: _s,
        ...fields
      } = member;
      return fields;
    };
    assert.deepEqual(
      (await membersOf(api, target)).map(fieldsOf),
      (await membersOf(api, source)).map(fieldsOf),
    );

    const again = await importCsv(api, source, csv, '?match_by=external_id');
    assert.deepEqual(again.body.counts, { rows: 3, created: 0, updated: 0, unchanged: 3, failed: 0 });
  });
});
