/**
 * Every operation of the client against the real service, listening on a port,
 * on SQLite and PostgreSQL.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeEachDialect } from '../../../test/harness.js';
import { CLOCK, listening, ON_THE_TEST_CLOCK, problemOf, WITH_API_KEY } from './service.js';

describeEachDialect(
  'the client: every operation',
  (api) => {
    const { clientOf } = listening(api);

    test('plans: create, read with its ETag, list, update with ifMatch, archive and remove', async () => {
      const client = clientOf();
      const facility = api.newFacility();
      const created = await client.plans.create(facility, { name: 'Adult monthly', price_amount: 4900 });
      assert.equal(created.data.name, 'Adult monthly');
      assert.equal(created.data.billing_period, 'monthly');
      assert.match(created.etag, /^".+"$/);

      const read = await client.plans.get(facility, created.data.id);
      assert.deepEqual(read, created);

      const updated = await client.plans.update(
        facility,
        created.data.id,
        { price_amount: 5400 },
        { ifMatch: read.etag },
      );
      assert.equal(updated.data.price_amount, 5400);
      assert.notEqual(updated.etag, read.etag);
      assert.deepEqual(
        (await client.plans.list(facility)).plans.map((plan) => [plan.id, plan.price_amount]),
        [[created.data.id, 5400]],
      );

      await client.plans.delete(facility, created.data.id, { ifMatch: updated.etag });
      assert.deepEqual((await client.plans.list(facility)).plans, []);
      assert.notEqual((await client.plans.get(facility, created.data.id)).data.deleted_at, null);
      await client.plans.delete(facility, created.data.id, { hardDelete: true });
      assert.equal((await problemOf(client.plans.get(facility, created.data.id))).code, 'plan_not_found');
    });

    test('entitlements: replace, read, set a new and an existing key, remove', async () => {
      const client = clientOf();
      const facility = api.newFacility();
      const plan = (await client.plans.create(facility, { name: 'Swim' })).data;

      const replaced = await client.entitlements.replace(facility, plan.id, {
        entitlements: { guest_passes: 2, sauna: true },
      });
      assert.deepEqual(replaced.data.entitlements, [
        { key: 'guest_passes', value: 2 },
        { key: 'sauna', value: true },
      ]);
      const read = await client.entitlements.get(facility, plan.id);
      assert.deepEqual(read, replaced);

      const added = await client.entitlements.set(facility, plan.id, 'locker', 'small');
      assert.deepEqual([added.data, added.created], [{ key: 'locker', value: 'small' }, true]);
      const changed = await client.entitlements.set(facility, plan.id, 'locker', 'large', {
        ifMatch: added.etag,
      });
      assert.deepEqual([changed.data, changed.created], [{ key: 'locker', value: 'large' }, false]);

      await client.entitlements.delete(facility, plan.id, 'sauna', { ifMatch: changed.etag });
      const keys = (await client.entitlements.get(facility, plan.id)).data.entitlements.map((e) => e.key);
      assert.deepEqual(keys, ['guest_passes', 'locker']);
    });

    test('members: enrol on a plan, read, list with filters, move the status, remove', async () => {
      const client = clientOf();
      const facility = api.newFacility();
      const plan = (await client.plans.create(facility, { name: 'Gym', max_members: 10 })).data;
      const ada = await client.members.create(facility, {
        first_name: 'Ada',
        last_name: 'Lovelace',
        email: 'ada@example.com',
        plan_id: plan.id,
      });
      await client.members.create(facility, { first_name: 'Bo', status: 'pending' });
      assert.deepEqual(await client.members.get(facility, ada.data.id), ada);

      const frozen = await client.members.update(
        facility,
        ada.data.id,
        { status: 'frozen' },
        { ifMatch: ada.etag },
      );
      assert.equal(frozen.data.status, 'frozen');
      const page = await client.members.list(facility, { status: 'frozen', q: 'lovelace' });
      assert.deepEqual(
        page.members.map((m) => m.first_name),
        ['Ada'],
      );

      await client.members.delete(facility, ada.data.id, { ifMatch: frozen.etag });
      assert.equal((await client.members.get(facility, ada.data.id)).data.status, 'removed');
      const listed = await client.members.list(facility);
      assert.deepEqual(
        listed.members.map((m) => m.first_name),
        ['Bo'],
      );
    });

    test('freezes and a scheduled cancellation: plan, list, cancel; ends_on set and cleared', async () => {
      const client = clientOf();
      const facility = api.newFacility();
      const day = (offset: number) => CLOCK.today(offset);
      const ada = (await client.members.create(facility, { first_name: 'Ada' })).data;
      const freeze = await client.freezes.create(facility, ada.id, {
        starts_on: day(7),
        ends_on: day(9),
        reason: 'Holiday',
      });
      assert.deepEqual([freeze.member_id, freeze.reason, freeze.cancelled_at], [ada.id, 'Holiday', null]);
      assert.deepEqual(
        (await client.freezes.list(facility, ada.id)).freezes.map((f) => f.id),
        [freeze.id],
      );
      await client.freezes.cancel(facility, ada.id, freeze.id);
      const [cancelled] = (await client.freezes.list(facility, ada.id)).freezes;
      assert.notEqual(cancelled.cancelled_at, null);
      const overlap = await problemOf(
        client.freezes.create(facility, ada.id, { starts_on: day(1), ends_on: day(0) }),
      );
      assert.equal(overlap.code, 'validation_error');

      const scheduled = await client.members.update(facility, ada.id, { ends_on: day(30) });
      assert.deepEqual([scheduled.data.ends_on, scheduled.data.status], [day(30), 'active']);
      assert.deepEqual(scheduled.data.allowed_transitions, ['frozen', 'suspended', 'cancelled']);
      assert.equal((await client.members.update(facility, ada.id, { ends_on: null })).data.ends_on, null);
    });

    test("credentials: give (a made QR code's value shown once), list by last four, revoke; a value taken is 409", async () => {
      const client = clientOf();
      const facility = api.newFacility();
      const ada = (await client.members.create(facility, { first_name: 'Ada' })).data;
      const qr = await client.credentials.create(facility, ada.id, { type: 'qr', label: 'Phone' });
      assert.match(String(qr.value), /^[A-Za-z0-9_-]{22}$/);
      const card = await client.credentials.create(facility, ada.id, { type: 'card', value: 'CARD-77' });
      const listed = (await client.credentials.list(facility, ada.id)).credentials;
      assert.deepEqual(
        listed.map((c) => [c.id, c.value_last4, c.value]),
        [
          [qr.id, String(qr.value).slice(-4), undefined],
          [card.id, 'D-77', undefined],
        ],
      );
      const taken = await problemOf(
        client.credentials.create(facility, ada.id, { type: 'card', value: 'CARD-77' }),
      );
      assert.equal(taken.code, 'credential_conflict');
      await client.credentials.revoke(facility, ada.id, card.id);
      await client.credentials.revoke(facility, ada.id, card.id);
      const [, revoked] = (await client.credentials.list(facility, ada.id)).credentials;
      assert.notEqual(revoked.revoked_at, null);
    });

    test('policy, plan templates and the audit trail', async () => {
      const client = clientOf();
      const facility = api.newFacility();
      const policy = await client.policy.get(facility);
      assert.equal(policy.data.timezone, 'UTC');
      const changed = await client.policy.update(
        facility,
        { timezone: 'Europe/Berlin' },
        { ifMatch: policy.etag },
      );
      assert.equal(changed.data.timezone, 'Europe/Berlin');

      const templates = await client.templates.list({ sport_id: 1, limit: 2 });
      assert.equal(templates.templates.length, 2);
      assert.equal(typeof templates.next_cursor, 'string');

      const events = await client.auditEvents.list(facility, { resource_type: 'policy' });
      assert.deepEqual(events.audit_events[0].changes.timezone, { before: 'UTC', after: 'Europe/Berlin' });
    });

    test('the door: a decision by member id, the check-ins, a check-out and the occupancy', async () => {
      const client = clientOf();
      const facility = api.newFacility();
      const plan = (await client.plans.create(facility, { name: 'Gym' })).data;
      const ada = (await client.members.create(facility, { first_name: 'Ada', plan_id: plan.id })).data;
      await client.policy.update(facility, { guest_passes_per_month: 2 });

      const trial = await client.accessDecisions.decide(facility, { member_id: ada.id, dry_run: true });
      assert.deepEqual([trial.decision, trial.check_in, trial.member?.plan_name], ['allow', null, 'Gym']);
      const decided = await client.accessDecisions.decide(facility, { member_id: ada.id, guests: 1 });
      assert.equal(decided.check_in?.decision, 'allow');
      const unknown = await client.accessDecisions.decide(facility, { credential: 'no such card' });
      assert.deepEqual(
        [unknown.decision, unknown.reasons.map((r) => r.code)],
        ['deny', ['credential_unknown']],
      );

      const allowed = await client.checkIns.list(facility, { decision: 'allow' });
      assert.deepEqual(
        allowed.check_ins.map((c) => [c.member_id, c.guests]),
        [[ada.id, 1]],
      );
      assert.deepEqual(await client.occupancy.get(facility), {
        ...(await client.occupancy.get(facility)),
        present: 1,
        guests: 1,
        total: 2,
      });
      const out = await client.checkIns.checkOut(facility, allowed.check_ins[0].id);
      assert.notEqual(out.checked_out_at, null);
      assert.equal((await client.occupancy.get(facility)).total, 0);
      const denied = (await client.checkIns.list(facility, { decision: 'deny' })).check_ins[0];
      assert.equal((await problemOf(client.checkIns.checkOut(facility, denied.id))).code, 'check_in_denied');
    });
  },
  WITH_API_KEY,
  ON_THE_TEST_CLOCK,
);
