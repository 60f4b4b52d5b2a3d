/** The policy's door fields: defaults, PATCH round trips, and what the schema cannot check. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertInvalid, describeEachDialect } from '../../../test/harness.js';

const policyUrl = (facilityId: number) => `/admin/facilities/${facilityId}/policy`;
const DOOR_DEFAULTS = {
  opening_hours: null,
  closures: [],
  max_occupancy: null,
  anti_passback_minutes: 0,
  visit_limit_mode: 'block',
  week_starts_on: 'monday',
  occupancy_cutoff_minutes: 240,
};
const doorFieldsOf = (body: Record<string, unknown>) =>
  Object.fromEntries(Object.keys(DOOR_DEFAULTS).map((field) => [field, body[field]]));
const closure = (starts_on: string, ends_on: string, reason: string | null = null) => ({
  starts_on,
  ends_on,
  reason,
});

describeEachDialect('policy: door fields', (api) => {
  test('a new policy is open at all hours, with no closures, no occupancy limit and no anti-passback', async () => {
    const read = await api.get(policyUrl(api.newFacility()));
    assert.deepEqual(doorFieldsOf(read.body), DOOR_DEFAULTS);
  });

  test('PATCH stores every door field as sent, and a read gives it back', async () => {
    const facility = api.newFacility();
    const door = {
      opening_hours: {
        monday: [
          { opens: '06:00', closes: '12:00' },
          { opens: '12:00', closes: '22:00' },
        ],
        friday: [{ opens: '20:00', closes: '02:00' }],
        saturday: [],
        sunday: [{ opens: '00:00', closes: '00:00' }],
      },
      closures: [closure('2026-12-24', '2026-12-26', 'Christmas'), closure('2027-01-01', '2027-01-01')],
      max_occupancy: 120,
      anti_passback_minutes: 10,
      visit_limit_mode: 'warn',
      week_starts_on: 'sunday',
      occupancy_cutoff_minutes: 180,
    };
    const patched = await api.patch(policyUrl(facility), door);
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual(doorFieldsOf(patched.body), door);
    assert.deepEqual(doorFieldsOf((await api.get(policyUrl(facility))).body), door);
  });

  test('null opening hours and no closures go back to open at all hours; null max_occupancy is no limit', async () => {
    const facility = api.newFacility();
    await api.patch(policyUrl(facility), {
      opening_hours: { tuesday: [{ opens: '08:00', closes: '20:00' }] },
      closures: [closure('2026-12-25', '2026-12-25')],
      max_occupancy: 50,
    });
    const reset = await api.patch(policyUrl(facility), {
      opening_hours: null,
      closures: [],
      max_occupancy: null,
    });
    assert.equal(reset.status, 200, reset.text);
    assert.deepEqual(doorFieldsOf((await api.get(policyUrl(facility))).body), DOOR_DEFAULTS);
  });

  test('a closure that ends before it starts is 400 on its ends_on; one day (starts_on = ends_on) is fine', async () => {
    const facility = api.newFacility();
    const refused = await api.patch(policyUrl(facility), {
      closures: [closure('2026-12-25', '2026-12-25'), closure('2026-12-31', '2026-12-30')],
    });
    const body = assertInvalid(refused, '/closures/1/ends_on');
    assert.deepEqual(body.errors, [
      {
        location: 'body',
        field: '/closures/1/ends_on',
        message: 'must not be before starts_on (2026-12-31)',
      },
    ]);
    assert.deepEqual((await api.get(policyUrl(facility))).body.closures, []);
  });

  test('opens equal to closes is open 24 hours, so it overlaps any other interval of its weekday', async () => {
    const facility = api.newFacility();
    const allDay = { wednesday: [{ opens: '07:00', closes: '07:00' }] };
    assert.equal((await api.patch(policyUrl(facility), { opening_hours: allDay })).status, 200);
    const refused = await api.patch(policyUrl(facility), {
      opening_hours: {
        wednesday: [
          { opens: '07:00', closes: '07:00' },
          { opens: '05:00', closes: '06:00' },
        ],
      },
    });
    // 05:00 to 06:00 opens first; the 24 hours from 07:00 overlap nothing before them.
    assert.equal(refused.status, 200, refused.text);
    const overlapping = await api.patch(policyUrl(facility), {
      opening_hours: {
        wednesday: [
          { opens: '07:00', closes: '07:00' },
          { opens: '09:00', closes: '10:00' },
        ],
      },
    });
    assertInvalid(overlapping, '/opening_hours/wednesday/1');
  });

  test('intervals of one weekday that overlap are 400 on the later one; touching ones are fine', async () => {
    const facility = api.newFacility();
    const refused = await api.patch(policyUrl(facility), {
      opening_hours: {
        monday: [
          { opens: '14:00', closes: '22:00' },
          { opens: '06:00', closes: '15:00' },
        ],
        tuesday: [
          { opens: '20:00', closes: '02:00' },
          { opens: '23:00', closes: '23:30' },
        ],
        wednesday: [
          { opens: '06:00', closes: '12:00' },
          { opens: '12:00', closes: '18:00' },
        ],
      },
    });
    const body = assertInvalid(refused, '/opening_hours/monday/0', '/opening_hours/tuesday/1');
    assert.equal(body.errors.length, 2, refused.text);
    assert.deepEqual(body.errors[0], {
      location: 'body',
      field: '/opening_hours/monday/0',
      message: 'overlaps 06:00 to 15:00 (item 1) of the same weekday',
    });
    assert.equal((await api.get(policyUrl(facility))).body.opening_hours, null);
  });

  test("an overnight interval may run into the next weekday's first interval", async () => {
    const facility = api.newFacility();
    const hours = {
      friday: [{ opens: '20:00', closes: '03:00' }],
      saturday: [{ opens: '01:00', closes: '10:00' }],
    };
    const patched = await api.patch(policyUrl(facility), { opening_hours: hours });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual(patched.body.opening_hours, hours);
  });

  test('more than 6 intervals a weekday, or more than 100 closures, are 400', async () => {
    const facility = api.newFacility();
    const seven = Array.from({ length: 7 }, (_, hour) => ({ opens: `0${hour}:00`, closes: `0${hour}:30` }));
    assertInvalid(
      await api.patch(policyUrl(facility), { opening_hours: { monday: seven } }),
      '/opening_hours/monday',
    );
    const many = Array.from({ length: 101 }, (_, day) => closure('2027-01-01', `2027-01-01`, `day ${day}`));
    assertInvalid(await api.patch(policyUrl(facility), { closures: many }), '/closures');
    const six = seven.slice(0, 6);
    assert.equal((await api.patch(policyUrl(facility), { opening_hours: { monday: six } })).status, 200);
  });

  test('times, weekdays and the other door fields are checked by the schema', async () => {
    const facility = api.newFacility();
    const refused = await api.patch(policyUrl(facility), {
      opening_hours: { monday: [{ opens: '24:00', closes: '7:00' }], someday: [] },
      closures: [{ starts_on: '2026-02-30', ends_on: '2026-03-01', reason: null }],
      max_occupancy: 0,
      anti_passback_minutes: -1,
      visit_limit_mode: 'stop',
      week_starts_on: 'sun',
      occupancy_cutoff_minutes: 10,
    });
    assertInvalid(
      refused,
      '/opening_hours/monday/0/opens',
      '/opening_hours/monday/0/closes',
      '/opening_hours/someday',
      '/closures/0/starts_on',
      '/max_occupancy',
      '/anti_passback_minutes',
      '/visit_limit_mode',
      '/week_starts_on',
      '/occupancy_cutoff_minutes',
    );
  });

  test('the change is in the audit trail with the door fields before and after', async () => {
    const facility = api.newFacility();
    const hours = { monday: [{ opens: '06:00', closes: '22:00' }] };
    await api.patch(policyUrl(facility), {
      opening_hours: hours,
      closures: [closure('2026-12-25', '2026-12-25')],
    });
    const events = await api.get(`/admin/facilities/${facility}/audit-events?resource_type=policy`);
    assert.deepEqual(events.body.audit_events[0].changes, {
      opening_hours: { before: null, after: hours },
      closures: { before: [], after: [closure('2026-12-25', '2026-12-25')] },
    });
  });
});

describeEachDialect(
  'policy: door field problems past PROBLEM_MAX_ERRORS',
  (api) => {
    test('the service lists its own field problems up to PROBLEM_MAX_ERRORS, and counts the others', async () => {
      const backwards = Array.from({ length: 5 }, () => closure('2026-12-31', '2026-12-30'));
      const body = assertInvalid(await api.patch(policyUrl(api.newFacility()), { closures: backwards }));
      assert.deepEqual(
        body.errors.map((error: { field: string }) => error.field),
        ['/closures/0/ends_on', '/closures/1/ends_on', '/closures/2/ends_on'],
      );
      assert.equal(body.errors_omitted, 2);
    });
  },
  { problemMaxErrors: 3 },
);
