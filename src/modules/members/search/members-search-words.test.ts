/**
 * `q` as a front desk types it (issue 42): every word must be in the first
 * name, last name, email, phone or external id, in any order, ignoring case
 * and accents; a phone number by its digits, however it is typed.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { describeEachDialect } from '../../../../test/harness.js';
import { queryWords, searchTextOf } from './member-search-text.js';

test('q is split into folded words; digits and phone signs typed apart are one number', () => {
  assert.deepEqual(queryWords('Jürgen  MÜLLER'), ['jurgen', 'muller']);
  assert.deepEqual(queryWords('Zoë'), ['zoe']);
  assert.deepEqual(queryWords('+41 79 123-45 67 Müller'), ['41791234567', 'muller']);
  assert.deepEqual(queryWords('OLD-1001'), ['old-1001']);
  assert.deepEqual(queryWords('ann ANN'), ['ann']);
  assert.deepEqual(queryWords('   '), []);
});

test("a member's searched text is its fields folded, the phone's digits, a line each", () => {
  const text = searchTextOf({
    first_name: 'Zoë',
    last_name: 'Çelik',
    email: 'Zoe@Example.com',
    phone: '+41 (0)79 123-45-67',
    external_id: 'OLD-1001',
  });
  assert.equal(text, 'zoe\ncelik\nzoe@example.com\n410791234567\nold-1001');
});

describeEachDialect('member search by words, accents and phone', (api) => {
  let url = '';
  const search = async (q: string) => {
    const response = await api.get(`${url}?q=${encodeURIComponent(q)}`);
    assert.equal(response.status, 200, response.text);
    return response.body.members.map((m: { first_name: string; last_name: string | null }) =>
      [m.first_name, m.last_name].filter(Boolean).join(' '),
    );
  };

  before(async () => {
    url = `/admin/facilities/${api.newFacility()}/members`;
    for (const body of [
      { first_name: 'Jürgen', last_name: 'Müller', email: 'jm@example.com', phone: '+41 79 123 45 67' },
      { first_name: 'Zoë', last_name: 'Adams', external_id: 'OLD-1001' },
      { first_name: 'Jürgen', last_name: 'Schmidt', phone: '044 555 12 12' },
      { first_name: 'Anna', last_name: 'Mueller', external_id: 'OLD-2002' },
    ]) {
      const response = await api.post(url, body);
      assert.equal(response.status, 201, response.text);
    }
  });

  test('a full name finds the member, its words in any order, accents typed or not', async () => {
    assert.deepEqual(await search('Jürgen Müller'), ['Jürgen Müller']);
    assert.deepEqual(await search('muller jurgen'), ['Jürgen Müller']);
    assert.deepEqual(await search('JÜRG'), ['Jürgen Müller', 'Jürgen Schmidt']);
  });

  test('zoe finds Zoë, muller finds Müller; mueller finds only Mueller', async () => {
    assert.deepEqual(await search('zoe'), ['Zoë Adams']);
    assert.deepEqual(await search('ZOË'), ['Zoë Adams']);
    assert.deepEqual(await search('muller'), ['Jürgen Müller']);
    assert.deepEqual(await search('mueller'), ['Anna Mueller']);
  });

  test('a word missing from the member finds nothing', async () => {
    assert.deepEqual(await search('Jürgen Müller Schmidt'), []);
    assert.deepEqual(await search('zoe zzz'), []);
  });

  test('a phone number is found by its digits, typed with spaces, dashes or none', async () => {
    for (const q of ['79 123 45 67', '79-123-45-67', '791234567', '+41 79 123 45 67', '(79) 123.45.67']) {
      assert.deepEqual(await search(q), ['Jürgen Müller'], q);
    }
    assert.deepEqual(await search('555 12'), ['Jürgen Schmidt']);
    assert.deepEqual(await search('jurgen 555-12-12'), ['Jürgen Schmidt']);
    assert.deepEqual(await search('79 999'), []);
  });

  test('an external id is found, whole or in part', async () => {
    assert.deepEqual(await search('OLD-1001'), ['Zoë Adams']);
    assert.deepEqual(await search('old-'), ['Zoë Adams', 'Anna Mueller']);
    assert.deepEqual(await search('2002'), ['Anna Mueller']);
  });

  test('a change of name, phone or external id is searched at once', async () => {
    const [zoe] = (await api.get(`${url}?q=zoe`)).body.members;
    const patched = await api.patch(`${url}/${zoe.id}`, {
      last_name: 'Çelik',
      phone: '076 000 11 22',
      external_id: null,
    });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual(await search('zoe celik'), ['Zoë Çelik']);
    assert.deepEqual(await search('076 000'), ['Zoë Çelik']);
    assert.deepEqual(await search('OLD-1001'), []);
    assert.deepEqual(await search('adams'), []);
  });
});
