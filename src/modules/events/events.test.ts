/**
 * The change feed: one event per committed change, written in the write's own
 * transaction, read through GET /admin/facilities/{facility_id}/events.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertInvalid, describeEachDialect } from '../../../test/harness.js';
import { servicePrincipal } from '../../core/principal.js';
import { createPlan } from '../plans/plan.service.js';

const f = (facility: number) => `/admin/facilities/${facility}`;

describeEachDialect('events: one per change', (api) => {
  const feed = async (facility: number, query = '') => {
    const response = await api.get(`${f(facility)}/events${query}`);
    assert.equal(response.status, 200, response.text);
    return response.body as {
      // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
      events: { id: number; type: string; facility_id: number; data: any }[];
      next_cursor: string;
    };
  };
  const types = async (facility: number) => (await feed(facility)).events.map((event) => event.type);

  test('every plan change is one event whose data is the plan after it', async () => {
    const facility = api.newFacility();
    const created = await api.post(`${f(facility)}/plans`, { name: 'Gold' });
    const url = `${f(facility)}/plans/${created.body.id}`;
    const updated = await api.patch(url, { price_amount: 900 });
    await api.patch(url, { price_amount: 900 }); // no change, no event
    await api.put(`${url}/entitlements`, { entitlements: { guest_passes: 2, locker: 'small' } });
    await api.delete(url);
    await api.delete(url); // a second soft delete changes nothing
    await api.delete(`${url}?hard_delete=true`);
    const { events } = await feed(facility);
    assert.deepEqual(
      events.map((event) => event.type),
      ['plan.created', 'plan.updated', 'plan.entitlements_changed', 'plan.deleted', 'plan.deleted'],
    );
    assert.deepEqual(events[0].data, created.body);
    assert.deepEqual(events[1].data, updated.body);
    assert.deepEqual(events[2].data, {
      plan_id: created.body.id,
      entitlements: [
        { key: 'guest_passes', value: 2 },
        { key: 'locker', value: 'small' },
      ],
    });
    assert.equal(events[3].data.hard_deleted, false);
    assert.notEqual(events[3].data.deleted_at, null);
    assert.equal(events[4].data.hard_deleted, true);
    assert.ok(events.every((event) => event.facility_id === facility));
  });

  test('member create, update, status change and delete are one event each; a status change carries the previous status', async () => {
    const facility = api.newFacility();
    const created = await api.post(`${f(facility)}/members`, { first_name: 'Ada' });
    const url = `${f(facility)}/members/${created.body.id}`;
    await api.patch(url, { notes: 'Travelling' });
    const frozen = await api.patch(url, { status: 'frozen' });
    await api.delete(url);
    await api.patch(url, { status: 'active' }); // a restore is a status change
    await api.delete(`${url}?hard_delete=true`);
    const { events } = await feed(facility);
    assert.deepEqual(
      events.map((event) => event.type),
      [
        'member.created',
        'member.updated',
        'member.freeze_created', // a PATCH to frozen opens an open-ended freeze
        'member.status_changed',
        'member.freeze_updated', // and the removal ends it today
        'member.deleted',
        'member.status_changed',
        'member.deleted',
      ],
    );
    const { allowed_transitions: _created, ...createdMember } = created.body;
    const { allowed_transitions: _frozen, ...frozenMember } = frozen.body;
    assert.deepEqual(events[0].data, createdMember);
    assert.deepEqual(events[3].data, { ...frozenMember, previous_status: 'active' });
    assert.equal(events[5].data.status, 'removed');
    assert.equal(events[6].data.previous_status, 'removed');
    assert.equal(events[7].data.hard_deleted, true);
  });

  test('a policy change is one policy.updated event; a PATCH that changes nothing is none', async () => {
    const facility = api.newFacility();
    const patched = await api.patch(`${f(facility)}/policy`, { currency: 'EUR' });
    await api.patch(`${f(facility)}/policy`, { currency: 'EUR' });
    const { events } = await feed(facility);
    assert.deepEqual(
      events.map((event) => event.type),
      ['policy.updated'],
    );
    assert.deepEqual(events[0].data, patched.body);
  });

  test('a plan made from a template is plan.created then plan.entitlements_changed', async () => {
    const facility = api.newFacility();
    const templates = await api.get('/admin/plan-templates');
    const template = templates.body.templates.find(
      (t: { entitlements: unknown[] }) => t.entitlements.length > 0,
    );
    await api.post(`${f(facility)}/plans`, { name: 'From template', template_id: template.id });
    assert.deepEqual(await types(facility), ['plan.created', 'plan.entitlements_changed']);
  });

  test('a refused write (409, 422, 412) leaves no event', async () => {
    const facility = api.newFacility();
    const plan = await api.post(`${f(facility)}/plans`, { name: 'Gold', max_members: 1 });
    await api.post(`${f(facility)}/members`, { first_name: 'A', plan_id: plan.body.id });
    const before = (await feed(facility)).events.length;
    assert.equal((await api.post(`${f(facility)}/plans`, { name: 'gold' })).status, 409);
    assert.equal(
      (await api.post(`${f(facility)}/members`, { first_name: 'B', plan_id: plan.body.id })).status,
      409,
    );
    assert.equal(
      (await api.post(`${f(facility)}/members`, { first_name: 'C', plan_id: 999999 })).status,
      422,
    );
    const stale = await api.patch(
      `${f(facility)}/plans/${plan.body.id}`,
      { price_amount: 1 },
      { 'if-match': '"stale"' },
    );
    assert.equal(stale.status, 412);
    assert.equal((await feed(facility)).events.length, before);
  });

  test('a write that rolls back after its event was written leaves no event', async () => {
    const facility = api.newFacility();
    const context = {
      principal: servicePrincipal('test'),
      requestId: 'rollback',
      now: new Date(),
      // Runs inside the transaction, after the plan, its audit entry and its event were written.
      onCreated: async () => {
        throw new Error('the commit fails');
      },
    };
    await assert.rejects(
      createPlan(api.app.db, context, api.app.templates, facility, { name: 'Gone' }),
      /commit fails/,
    );
    assert.deepEqual(await types(facility), []);
    assert.equal((await api.get(`${f(facility)}/plans?include_inactive=true`)).body.plans.length, 0);
  });

  test('events are scoped to their facility', async () => {
    const [one, two] = [api.newFacility(), api.newFacility()];
    await api.post(`${f(one)}/plans`, { name: 'One' });
    await api.post(`${f(two)}/plans`, { name: 'Two' });
    const { events } = await feed(one);
    assert.deepEqual(
      events.map((event) => event.data.name),
      ['One'],
    );
  });

  test('types keeps only the listed types; an unknown type is 400', async () => {
    const facility = api.newFacility();
    const plan = await api.post(`${f(facility)}/plans`, { name: 'Gold' });
    await api.patch(`${f(facility)}/plans/${plan.body.id}`, { price_amount: 5 });
    await api.post(`${f(facility)}/members`, { first_name: 'Ada' });
    const { events } = await feed(facility, '?types=member.created,plan.updated');
    assert.deepEqual(
      events.map((event) => event.type),
      ['plan.updated', 'member.created'],
    );
    assertInvalid(await api.get(`${f(facility)}/events?types=plan.exploded`), 'types');
  });

  test('the cursor pages through the feed in order, without repeats; an empty read keeps its cursor', async () => {
    const facility = api.newFacility();
    for (const name of ['A', 'B', 'C', 'D', 'E']) await api.post(`${f(facility)}/plans`, { name });
    const names: string[] = [];
    let cursor = '';
    for (let i = 0; i < 3; i++) {
      const page = await feed(facility, `?limit=2${cursor}`);
      names.push(...page.events.map((event) => event.data.name));
      cursor = `&after=${page.next_cursor}`;
    }
    assert.deepEqual(names, ['A', 'B', 'C', 'D', 'E']);
    const end = await feed(facility, `?limit=2${cursor}`);
    assert.deepEqual(end.events, []);
    assert.equal(`&after=${end.next_cursor}`, cursor, 'an empty read hands back its own cursor');
    await api.post(`${f(facility)}/plans`, { name: 'F' });
    assert.deepEqual(
      (await feed(facility, `?limit=2${cursor}`)).events.map((event) => event.data.name),
      ['F'],
    );
  });

  test('a cursor the service did not issue, and wait or limit out of range, are 400', async () => {
    const facility = api.newFacility();
    assertInvalid(await api.get(`${f(facility)}/events?after=bogus`), 'after');
    const forged = Buffer.from('ev:1:x').toString('base64url');
    assertInvalid(await api.get(`${f(facility)}/events?after=${forged}`), 'after');
    assertInvalid(await api.get(`${f(facility)}/events?wait=31`), 'wait');
    assertInvalid(await api.get(`${f(facility)}/events?limit=0`), 'limit');
  });
});
