import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { runCli, STACK_LINE } from '../../../../test/cli-process.js';
import { describeEachDialect } from '../../../../test/harness.js';
import { freePort } from '../../../../test/service-process.js';

describeEachDialect('members CSV on the command line', (api) => {
  let url = '';
  before(async () => {
    url = await api.app.listen({ port: 0, host: '127.0.0.1' });
  });

  test('members import: a dry run reports and writes nothing, then the import; members export prints the file', async () => {
    const facility = api.newFacility();
    const file = join(mkdtempSync(join(tmpdir(), 'facility-admin-cli-')), 'members.csv');
    writeFileSync(file, '\uFEFFfirst_name;email\r\nAnn;ann@example.com\r\nBo;not-an-email\r\n');
    const target = ['--facility', String(facility), '--url', url];

    const dry = await runCli(['members', 'import', file, ...target, '--dry-run', '--on-error', 'skip']);
    assert.equal(dry.code, 1, 'a failing row exits 1');
    const report = JSON.parse(dry.stdout);
    assert.deepEqual([report.dry_run, report.counts.created, report.counts.failed], [true, 1, 1]);
    assert.equal((await api.get(`/admin/facilities/${facility}/members`)).body.members.length, 0);

    const real = await runCli(['members', 'import', file, ...target, '--on-error', 'skip']);
    assert.equal(JSON.parse(real.stdout).written, true);

    const exported = await runCli(['members', 'export', ...target]);
    assert.equal(exported.code, 0, exported.stderr);
    assert.match(exported.stdout, /^\uFEFFid,facility_id,first_name,/);
    assert.match(exported.stdout, /,Ann,,ann@example\.com,/);
  });

  test('a file the service refuses, and a service that cannot be reached, are one line on stderr and exit 1', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'facility-admin-cli-')), 'wrong.csv');
    writeFileSync(file, 'first_name,shoe_size\nAda,38\n');
    const refused = await runCli([
      'members',
      'import',
      file,
      '--facility',
      String(api.newFacility()),
      '--url',
      url,
    ]);
    assert.equal(refused.code, 1);
    assert.match(
      refused.stderr.trim(),
      /^facility-admin: the service answered 400 invalid_csv: Line 1: unknown column "shoe_size"/,
    );
    assert.doesNotMatch(refused.stderr, STACK_LINE);

    const nowhere = `http://127.0.0.1:${await freePort()}`;
    const closed = await runCli(['members', 'import', file, '--facility', '1', '--url', nowhere]);
    assert.equal(closed.code, 1);
    assert.equal(
      closed.stderr.trim(),
      `facility-admin: cannot reach the service at ${nowhere}: ECONNREFUSED`,
    );
    const exported = await runCli(['members', 'export', '--facility', '1', '--url', nowhere]);
    assert.equal(exported.code, 1);
    assert.match(exported.stderr.trim(), /^facility-admin: cannot reach the service/);
  });

  test('a missing --facility is a usage error, not a request', async () => {
    const result = await runCli(['members', 'export', '--url', url]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /required option '--facility <id>'/);
  });
});
