/** Members' credentials through the HTTP API: giving, listing and revoking them, on both engines. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertInvalid, assertProblem, describeEachDialect, testClock } from '../../../../test/harness.js';
import { findCredentialByValue } from './credential.repository.js';
import { MAX_CREDENTIALS_PER_MEMBER } from './credential.service.js';
import { hashCredentialValue } from './credential-value.js';
import { credentialRequests } from './credentials.fixtures.js';

const clock = testClock('2026-03-02T09:20:11.512Z');
const FIELDS = ['created_at', 'facility_id', 'id', 'label', 'member_id', 'revoked_at', 'type', 'value_last4'];

describeEachDialect(
  'credentials',
  (api) => {
    const { newMember, give } = credentialRequests(api);

    test('POST gives a card: 201, Location, every field, the whole value this once', async () => {
      clock.set('2026-03-02T09:20:11.512Z');
      const facility = api.newFacility();
      const member = await newMember(facility);
      const response = await api.post(member.credentials, {
        type: 'card',
        value: '04A2241A7731',
        label: 'Blue key fob',
      });
      assert.equal(response.status, 201, response.text);
      assert.equal(response.headers.location, `${member.credentials}/${response.body.id}`);
      assert.deepEqual(response.body, {
        id: response.body.id,
        facility_id: facility,
        member_id: member.id,
        type: 'card',
        value_last4: '7731',
        label: 'Blue key fob',
        created_at: '2026-03-02T09:20:11.512Z',
        revoked_at: null,
        value: '04A2241A7731',
      });
      const stored = await findCredentialByValue(api.app.db, facility, '04A2241A7731');
      assert.equal(stored?.value_hash, hashCredentialValue('04A2241A7731'), 'stored as its SHA-256');
    });

    test('a PIN is given as digits; a QR code is given, or made by the service', async () => {
      const member = await newMember(api.newFacility());
      const pin = await give(member.credentials, { type: 'pin', value: '482913' });
      assert.deepEqual([pin.type, pin.value, pin.value_last4, pin.label], ['pin', '482913', '2913', null]);
      const given = await give(member.credentials, { type: 'qr', value: 'QR-given-1' });
      assert.equal(given.value, 'QR-given-1');
      const made = await give(member.credentials, { type: 'qr', label: 'Phone' });
      assert.match(made.value, /^[A-Za-z0-9_-]{22}$/);
      assert.equal(made.value_last4, made.value.slice(-4));
      const another = await give(member.credentials, { type: 'qr' });
      assert.notEqual(another.value, made.value);
    });

    test('the list shows the last four only, revoked ones too, by id', async () => {
      const member = await newMember(api.newFacility());
      const card = await give(member.credentials, { type: 'card', value: 'CARD-0001' });
      const pin = await give(member.credentials, { type: 'pin', value: '1234' });
      assert.equal((await api.delete(`${member.credentials}/${card.id}`)).status, 204);
      const listed = await api.get(member.credentials);
      assert.equal(listed.status, 200, listed.text);
      assert.deepEqual(
        listed.body.credentials.map((c: Record<string, unknown>) => Object.keys(c).sort()),
        [FIELDS, FIELDS],
      );
      assert.deepEqual(
        listed.body.credentials.map((c: Record<string, unknown>) => [
          c.id,
          c.value_last4,
          c.revoked_at !== null,
        ]),
        [
          [card.id, '0001', true],
          [pin.id, '1234', false],
        ],
      );
      assert.ok(!listed.text.includes('CARD-0001'));
      const page = await api.get(`${member.credentials}?limit=1`);
      assert.equal(page.body.credentials.length, 1);
      assert.notEqual(page.body.next_cursor, null);
    });

    test("a value held in the facility is 409, this member's or another's; a revoked one may be given again", async () => {
      const facility = api.newFacility();
      const [ada, bob] = [await newMember(facility), await newMember(facility)];
      const card = await give(ada.credentials, { type: 'card', value: 'SHARED-42' });
      assertProblem(
        await api.post(ada.credentials, { type: 'card', value: 'SHARED-42' }),
        409,
        'credential_conflict',
      );
      assertProblem(
        await api.post(bob.credentials, { type: 'qr', value: 'SHARED-42' }),
        409,
        'credential_conflict',
      );
      const elsewhere = await newMember(api.newFacility());
      await give(elsewhere.credentials, { type: 'card', value: 'SHARED-42' });
      await api.delete(`${ada.credentials}/${card.id}`);
      const again = await give(bob.credentials, { type: 'card', value: 'SHARED-42' });
      assert.equal((await findCredentialByValue(api.app.db, facility, 'SHARED-42'))?.id, again.id);
    });

    test('concurrent creates of one value: exactly one 201, the others 409', async () => {
      const facility = api.newFacility();
      const members = await Promise.all(Array.from({ length: 8 }, () => newMember(facility)));
      const answers = await Promise.all(
        members.map((m) => api.post(m.credentials, { type: 'card', value: 'RACE-7' })),
      );
      assert.deepEqual(answers.map((a) => a.status).sort(), [201, 409, 409, 409, 409, 409, 409, 409]);
      for (const answer of answers.filter((a) => a.status === 409))
        assertProblem(answer, 409, 'credential_conflict');
    });

    test('revoking sets revoked_at; revoking again is 204 and changes nothing', async () => {
      clock.set('2026-03-02T09:20:11.512Z');
      const member = await newMember(api.newFacility());
      const card = await give(member.credentials, { type: 'card', value: 'REV-1' });
      clock.set('2026-03-05T10:00:00.000Z');
      const first = await api.delete(`${member.credentials}/${card.id}`);
      assert.equal(first.status, 204);
      assert.equal(first.text, '');
      clock.set('2026-03-06T10:00:00.000Z');
      assert.equal((await api.delete(`${member.credentials}/${card.id}`)).status, 204);
      const [listed] = (await api.get(member.credentials)).body.credentials;
      assert.equal(listed.revoked_at, '2026-03-05T10:00:00.000Z');
      assertProblem(await api.delete(`${member.credentials}/987654321`), 404, 'credential_not_found');
    });

    test("another facility's member, or its credential, is 404", async () => {
      const facility = api.newFacility();
      const theirs = await newMember(api.newFacility());
      const card = await give(theirs.credentials, { type: 'card', value: 'THEIRS-1' });
      const mine = await newMember(facility);
      const foreign = `/admin/facilities/${facility}/members/${theirs.id}/credentials`;
      assertProblem(await api.post(foreign, { type: 'card', value: 'X-1' }), 404, 'member_not_found');
      assertProblem(await api.get(foreign), 404, 'member_not_found');
      assertProblem(await api.delete(`${foreign}/${card.id}`), 404, 'member_not_found');
      assertProblem(await api.delete(`${mine.credentials}/${card.id}`), 404, 'credential_not_found');
    });

    test('a removed member gets no credential; its credentials are still listed and revocable', async () => {
      const member = await newMember(api.newFacility());
      const card = await give(member.credentials, { type: 'card', value: 'GONE-1' });
      assert.equal((await api.delete(member.url)).status, 204);
      assertProblem(
        await api.post(member.credentials, { type: 'pin', value: '1111' }),
        404,
        'member_not_found',
      );
      assert.equal((await api.get(member.credentials)).body.credentials.length, 1);
      assert.equal((await api.delete(`${member.credentials}/${card.id}`)).status, 204);
    });

    test(`a member holds at most ${MAX_CREDENTIALS_PER_MEMBER} credentials not revoked`, async () => {
      const member = await newMember(api.newFacility());
      const given = [];
      for (let i = 0; i < MAX_CREDENTIALS_PER_MEMBER; i++)
        given.push(await give(member.credentials, { type: 'qr' }));
      assertProblem(await api.post(member.credentials, { type: 'qr' }), 409, 'credential_limit_reached');
      await api.delete(`${member.credentials}/${given[0].id}`);
      await give(member.credentials, { type: 'qr' });
    });

    test('bad input is 400 with the field named', async () => {
      const member = await newMember(api.newFacility());
      assertInvalid(await api.post(member.credentials, { type: 'card' }), '/value');
      assertInvalid(await api.post(member.credentials, { type: 'pin' }), '/value');
      assertInvalid(await api.post(member.credentials, { type: 'pin', value: '12a4' }), '/value');
      assertInvalid(await api.post(member.credentials, { type: 'pin', value: '123' }), '/value');
      assertInvalid(await api.post(member.credentials, { type: 'pin', value: '1234567890123' }), '/value');
      assertInvalid(await api.post(member.credentials, { type: 'card', value: 'has space' }), '/value');
      assertInvalid(await api.post(member.credentials, { type: 'card', value: 'x'.repeat(65) }), '/value');
      assertInvalid(await api.post(member.credentials, { type: 'badge', value: 'X' }), '/type');
      assertInvalid(await api.post(member.credentials, { type: 'qr', label: '' }), '/label');
      assert.equal((await api.get(member.credentials)).body.credentials.length, 0);
    });
  },
  {},
  { now: clock.now },
);
