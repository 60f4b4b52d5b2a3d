/**
 * The policy's `timezone` (contract: "IANA zone name (validated, aliases
 * included), returned exactly as sent"): an alias is not renamed to the
 * zone the runtime's ICU calls canonical, and what is not an IANA name is 400.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertInvalid, describeEachDialect } from '../../../test/harness.js';

describeEachDialect('policy timezone', (api) => {
  const policyUrl = (facility: number) => `/admin/facilities/${facility}/policy`;

  const assertRefused = async (timezone: string, detail: string) => {
    const body = assertInvalid(await api.patch(policyUrl(api.newFacility()), { timezone }), '/timezone');
    assert.equal(body.errors[0].message, detail, timezone);
  };

  test('a name is kept as sent, an alias too: Asia/Kolkata stays Asia/Kolkata, not Asia/Calcutta', async () => {
    for (const timezone of [
      'Asia/Kolkata',
      'America/Argentina/Buenos_Aires',
      'Asia/Calcutta',
      'America/Buenos_Aires',
      'Europe/Kyiv',
      'US/Pacific',
      'EST5EDT',
      'Etc/GMT+5',
      'Etc/UTC',
      'GMT',
    ]) {
      const facility = api.newFacility();
      const patched = await api.patch(policyUrl(facility), { timezone });
      assert.equal(patched.status, 200, patched.text);
      assert.equal(patched.body.timezone, timezone);
      assert.equal((await api.get(policyUrl(facility))).body.timezone, timezone);
    }
  });

  test('an alias and its zone are different values: switching between them is a change, repeating one is not', async () => {
    const facility = api.newFacility();
    const kolkata = await api.patch(policyUrl(facility), { timezone: 'Asia/Kolkata' });
    const again = await api.patch(policyUrl(facility), { timezone: 'Asia/Kolkata' });
    assert.equal(again.body.updated_at, kolkata.body.updated_at);
    const calcutta = await api.patch(policyUrl(facility), { timezone: 'Asia/Calcutta' });
    assert.equal(calcutta.body.timezone, 'Asia/Calcutta');
    assert.notEqual(calcutta.body.updated_at, kolkata.body.updated_at);
  });

  test("a member's default joined_on is today in the zone an alias names", async () => {
    const facility = api.newFacility();
    await api.patch(policyUrl(facility), { timezone: 'Asia/Kolkata' });
    const member = await api.post(`/admin/facilities/${facility}/members`, { first_name: 'Ann' });
    assert.equal(member.status, 201, member.text);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(new Date());
    assert.equal(member.body.joined_on, today);
  });

  test('offsets, abbreviations and names only ICU knows are not IANA names: 400', async () => {
    for (const timezone of [
      '+05:30',
      '-01:00',
      '+0530',
      'IST',
      'PST',
      'SystemV/AST4',
      'UTC+5',
      'Mars/Olympus',
    ]) {
      await assertRefused(timezone, `"${timezone}" is not an IANA time zone name`);
    }
  });

  test('a name in another case is 400 and says how IANA spells it', async () => {
    await assertRefused(
      'asia/kolkata',
      '"asia/kolkata" is not an IANA time zone name; IANA spells it "Asia/Kolkata"',
    );
    await assertRefused('utc', '"utc" is not an IANA time zone name; IANA spells it "UTC"');
  });

  test('an IANA name the runtime has no rules for is 400', async () => {
    await assertRefused('Factory', '"Factory" is not a time zone this service can compute dates in');
  });
});
