/** What the service keeps of a credential's value: its hash and last four, nowhere its value (nor, outside its row, its hash). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertProblem, describeEachDialect } from '../../../../test/harness.js';
import { eventsOf } from '../../audit/audit.fixtures.js';
import { hashCredentialValue } from './credential-value.js';
import { credentialRequests } from './credentials.fixtures.js';

describeEachDialect('credentials: the value kept nowhere', (api) => {
  const { newMember, give } = credentialRequests(api);

  test('the audit trail has the create and the revocation, never the value nor its hash', async () => {
    const facility = api.newFacility();
    const member = await newMember(facility);
    const card = await give(member.credentials, { type: 'card', value: 'SECRET-CARD-9876' });
    await api.delete(`${member.credentials}/${card.id}`);
    const entries = (await eventsOf(api, facility, '?resource_type=credential')).map((e) => [
      e.resource_id,
      e.action,
    ]);
    assert.deepEqual(entries, [
      [String(card.id), 'create'],
      [String(card.id), 'delete'],
    ]);
    const trail = JSON.stringify(await eventsOf(api, facility));
    assert.ok(!trail.includes('SECRET-CARD'), 'the value');
    assert.ok(!trail.includes(hashCredentialValue('SECRET-CARD-9876')), 'its hash');
    assert.ok(trail.includes('9876'), 'its last four');
    const feed = await api.get(`/admin/facilities/${facility}/events`);
    assert.ok(!feed.text.includes('credential'), 'no event of the feed');
  });

  test('Idempotency-Key is ignored: the answer with the value is not stored, a retry of a card is 409', async () => {
    const member = await newMember(api.newFacility());
    const key = { 'idempotency-key': `card-${member.id}` };
    const first = await api.post(member.credentials, { type: 'card', value: 'RETRY-CARD-55' }, key);
    assert.equal(first.status, 201, first.text);
    assert.equal(first.headers['idempotent-replayed'], undefined);
    const again = await api.post(member.credentials, { type: 'card', value: 'RETRY-CARD-55' }, key);
    assertProblem(again, 409, 'credential_conflict');
    const stored = JSON.stringify(await api.app.db.selectFrom('idempotency_keys').selectAll().execute());
    assert.ok(!stored.includes('RETRY-CARD-55'));
  });
});
