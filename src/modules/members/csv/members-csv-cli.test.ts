import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { runCli } from '../../../../test/cli-process.js';
import { describeEachDialect } from '../../../../test/harness.js';

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

  test('a missing --facility is a usage error, not a request', async () => {
    const result = await runCli(['members', 'export', '--url', url]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /required option '--facility <id>'/);
  });
});
