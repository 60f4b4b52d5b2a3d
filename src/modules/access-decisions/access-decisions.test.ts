/**
 * Access decisions, one rule per test: each reason about the credential and
 * the member alone, and several at once in their documented order. Counts
 * (visits, guests, occupancy, anti-passback): access-decisions-counts.test.ts;
 * the request itself (dry run, idempotency, events): access-decisions-request.test.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertProblem, describeEachDialect, testClock } from '../../../test/harness.js';
import { doorRequests } from './access-decisions.fixtures.js';

const clock = testClock('2026-04-08T10:00:00.000Z');

describeEachDialect(
  'access decisions: the member',
  (api) => {
    const door = doorRequests(api);
    const { decided, codesOf } = door;
    /** A facility whose plan has a sauna, and an active member of it. */
    async function setUp(entitlements: Record<string, unknown> = { sauna: true }) {
      clock.set('2026-04-08T10:00:00.000Z');
      const facility = api.newFacility();
      const plan = await door.newPlan(facility, entitlements);
      const member = await door.newMember(facility, plan.id);
      return { facility, plan, member };
    }

    test('an active member of an active plan is allowed: the check-in is recorded and last_check_in_at set', async () => {
      const { facility, plan, member } = await setUp();
      const answer = await decided(facility, { member_id: member.id });
      assert.deepEqual([answer.decision, answer.reasons, answer.dry_run], ['allow', [], false]);
      assert.deepEqual(answer.member, {
        id: member.id,
        first_name: 'Ann',
        last_name: null,
        status: 'active',
        plan_id: plan.id,
        plan_name: 'Gold',
      });
      assert.deepEqual(answer.entitlements, { sauna: true });
      assert.deepEqual(answer.remaining, { visits: null, guest_passes: null });
      assert.equal(answer.decided_at, '2026-04-08T10:00:00.000Z');
      assert.deepEqual(
        [answer.check_in.member_id, answer.check_in.decision, answer.check_in.checked_in_at],
        [member.id, 'allow', '2026-04-08T10:00:00.000Z'],
      );
      const read = await api.get(`${door.facilityUrl(facility)}/members/${member.id}`);
      assert.equal(read.body.last_check_in_at, '2026-04-08T10:00:00.000Z');
    });

    test('a credential names its member; the check-in keeps its last four characters', async () => {
      const { facility, member } = await setUp();
      await door.giveCredential(facility, member.id, 'CARD-0001-A7F3');
      const answer = await decided(facility, { credential: 'CARD-0001-A7F3' });
      assert.deepEqual([answer.decision, answer.member.id], ['allow', member.id]);
      assert.equal(answer.check_in.credential_last4, 'A7F3');
      assert.equal(typeof answer.check_in.credential_id, 'number');
    });

    test('credential_unknown: a value never given is denied with 200, and the attempt is recorded', async () => {
      const { facility } = await setUp();
      const answer = await decided(facility, { credential: 'nobody-has-this' });
      assert.deepEqual(
        [answer.decision, codesOf(answer), answer.member],
        ['deny', ['credential_unknown'], null],
      );
      assert.equal(answer.reasons[0].until, null);
      assert.deepEqual([answer.check_in.member_id, answer.check_in.reasons], [null, ['credential_unknown']]);
    });

    test("credential_unknown: another facility's credential is unknown here", async () => {
      const { member, facility: other } = await setUp();
      await door.giveCredential(other, member.id, 'CARD-OTHER-1');
      const { facility } = await setUp();
      const answer = await decided(facility, { credential: 'CARD-OTHER-1' });
      assert.deepEqual(codesOf(answer), ['credential_unknown']);
    });

    test('credential_revoked: a revoked credential stops there, with no member judged', async () => {
      const { facility, member } = await setUp();
      await api.patch(`${door.facilityUrl(facility)}/members/${member.id}`, { status: 'suspended' });
      await door.giveCredential(facility, member.id, 'CARD-OLD-0001', true);
      const answer = await decided(facility, { credential: 'CARD-OLD-0001' });
      assert.deepEqual(
        [answer.decision, codesOf(answer), answer.member],
        ['deny', ['credential_revoked'], null],
      );
    });

    test('member_not_active: a suspended member is denied, with the status', async () => {
      const { facility, member } = await setUp();
      await api.patch(`${door.facilityUrl(facility)}/members/${member.id}`, { status: 'suspended' });
      const answer = await decided(facility, { member_id: member.id });
      assert.deepEqual(answer.reasons, [
        {
          code: 'member_not_active',
          message: "Ann's membership is suspended.",
          until: null,
          status: 'suspended',
        },
      ]);
    });

    test('member_not_active: a frozen member is denied until the freeze ends', async () => {
      const { facility, member } = await setUp();
      const freezes = `${door.facilityUrl(facility)}/members/${member.id}/freezes`;
      assert.equal((await api.post(freezes, { starts_on: '2026-04-08', ends_on: '2026-04-12' })).status, 201);
      const answer = await decided(facility, { member_id: member.id });
      assert.deepEqual(codesOf(answer), ['member_not_active']);
      assert.deepEqual(
        [answer.reasons[0].status, answer.reasons[0].until],
        ['frozen', '2026-04-13T00:00:00.000Z'],
      );
    });

    test('member_not_active: a removed member is denied, status removed', async () => {
      const { facility, member } = await setUp();
      await door.giveCredential(facility, member.id, 'CARD-REMOVED-1');
      assert.equal((await api.delete(`${door.facilityUrl(facility)}/members/${member.id}`)).status, 204);
      const answer = await decided(facility, { credential: 'CARD-REMOVED-1' });
      assert.deepEqual([codesOf(answer), answer.reasons[0].status], [['member_not_active'], 'removed']);
    });

    test('term_not_started: denied until local midnight of joined_on', async () => {
      const { facility, plan } = await setUp();
      await door.setPolicy(facility, { timezone: 'Europe/Berlin' });
      const member = await door.newMember(facility, plan.id, { joined_on: '2026-04-20' });
      const answer = await decided(facility, { member_id: member.id });
      assert.deepEqual(answer.reasons, [
        {
          code: 'term_not_started',
          message: "Ann's membership starts on 2026-04-20.",
          until: '2026-04-19T22:00:00.000Z',
        },
      ]);
    });

    test('term_ended: after the last day the member is cancelled and the term ended', async () => {
      const { facility, plan } = await setUp();
      const member = await door.newMember(facility, plan.id, { ends_on: '2026-04-08' });
      clock.set('2026-04-09T10:00:00.000Z');
      // A dry run reads the member as stored (the schedule has not cancelled it yet): the term alone.
      const stored = await decided(facility, { member_id: member.id, dry_run: true });
      assert.deepEqual(codesOf(stored), ['term_ended']);
      // A recorded decision settles the member first, as every member write does: cancelled too.
      const answer = await decided(facility, { member_id: member.id });
      assert.deepEqual(codesOf(answer), ['member_not_active', 'term_ended']);
      assert.equal(answer.reasons[1].message, "Ann's membership ended on 2026-04-08.");
    });

    test('waiver_required: the policy requires a waiver and the member has not signed one', async () => {
      const { facility, member } = await setUp();
      await door.setPolicy(facility, { require_waiver: true });
      assert.deepEqual(codesOf(await decided(facility, { member_id: member.id })), ['waiver_required']);
    });

    test('plan_inactive: a member without a plan, or of a plan no longer active', async () => {
      const { facility, plan } = await setUp();
      const planless = await door.newMember(facility, null);
      assert.deepEqual(codesOf(await decided(facility, { member_id: planless.id })), ['plan_inactive']);
      const member = await door.newMember(facility, plan.id);
      await api.patch(`${door.facilityUrl(facility)}/plans/${plan.id}`, { is_active: false });
      const answer = await decided(facility, { member_id: member.id });
      assert.deepEqual(
        [codesOf(answer), answer.reasons[0].message],
        [['plan_inactive'], "Ann's plan Gold is no longer offered."],
      );
    });

    test('area_not_included: an area whose key is absent, false or 0 is refused; true is allowed', async () => {
      const { facility, member } = await setUp({ sauna: true, pool: false, spa: 0 });
      for (const area of ['gym', 'pool', 'spa']) {
        const answer = await decided(facility, { member_id: member.id, area });
        assert.deepEqual(codesOf(answer), ['area_not_included'], area);
      }
      assert.equal((await decided(facility, { member_id: member.id, area: 'sauna' })).decision, 'allow');
    });

    test('several rules at once: all are listed, in the documented order', async () => {
      const { facility, member } = await setUp({});
      await door.setPolicy(facility, { require_waiver: true });
      await api.patch(`${door.facilityUrl(facility)}/members/${member.id}`, { status: 'suspended' });
      const answer = await decided(facility, { member_id: member.id, area: 'sauna' });
      assert.deepEqual(codesOf(answer), ['member_not_active', 'waiver_required', 'area_not_included']);
    });

    test('a member id of no member of the facility is 404 member_not_found', async () => {
      const { facility } = await setUp();
      assertProblem(await door.decide(facility, { member_id: 999999 }), 404, 'member_not_found');
    });
  },
  {},
  { now: clock.now },
);
