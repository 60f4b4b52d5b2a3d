import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertInvalid, assertProblem, describeEachDialect } from '../../../test/harness.js';

describeEachDialect('policy', (api) => {
  const policyUrl = (facilityId: number) => `/admin/facilities/${facilityId}/policy`;

  test('first read creates the default policy, returned bare', async () => {
    const facility = api.newFacility();
    const response = await api.get(policyUrl(facility));
    assert.equal(response.status, 200);
    const { created_at, updated_at, ...rest } = response.body;
    assert.deepEqual(rest, {
      facility_id: facility,
      timezone: 'UTC',
      currency: 'USD',
      booking_window_days: 14,
      cancellation_cutoff_hours: 24,
      late_cancellation_fee_amount: 0,
      no_show_fee_amount: 0,
      max_active_bookings: 5,
      guest_passes_per_month: 0,
      allow_freeze: true,
      max_freeze_days_per_year: 60,
      min_member_age: 0,
      require_waiver: false,
      opening_hours: null,
      closures: [],
      max_occupancy: null,
      anti_passback_minutes: 0,
      visit_limit_mode: 'block',
      week_starts_on: 'monday',
      occupancy_cutoff_minutes: 240,
    });
    assert.match(created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    assert.equal(updated_at, created_at);
  });

  test('concurrent first reads create exactly one policy', async () => {
    const facility = api.newFacility();
    const responses = await Promise.all(Array.from({ length: 10 }, () => api.get(policyUrl(facility))));
    assert.ok(responses.every((r) => r.status === 200));
    assert.equal(new Set(responses.map((r) => r.body.created_at)).size, 1);
  });

  test('PATCH upserts: changes only the fields sent', async () => {
    const facility = api.newFacility();
    const response = await api.patch(policyUrl(facility), { booking_window_days: 30, allow_freeze: false });
    assert.equal(response.status, 200);
    assert.equal(response.body.booking_window_days, 30);
    assert.equal(response.body.allow_freeze, false);
    assert.equal(response.body.currency, 'USD');
    const again = await api.get(policyUrl(facility));
    assert.deepEqual(again.body, response.body);
  });

  test('PATCH with nothing new keeps updated_at', async () => {
    const facility = api.newFacility();
    const first = await api.patch(policyUrl(facility), { currency: 'EUR' });
    const noop = await api.patch(policyUrl(facility), { currency: 'EUR' });
    const empty = await api.patch(policyUrl(facility), {});
    assert.equal(noop.body.updated_at, first.body.updated_at);
    assert.deepEqual(empty.body, first.body);
  });

  test('the OpenAPI description of each policy field says whether this service enforces it', async () => {
    const doc = (await api.get('/openapi.json')).body;
    const policy =
      doc.paths['/admin/facilities/{facility_id}/policy'].get.responses['200'].content['application/json'];
    const schema = doc.components.schemas[policy.schema.$ref.replace('#/components/schemas/', '')];
    const described = (field: string) => String(schema.properties[field].description);
    for (const field of [
      'timezone',
      'allow_freeze',
      'min_member_age',
      'max_freeze_days_per_year',
      'require_waiver',
    ])
      assert.match(described(field), /Enforced:/);
    assert.match(described('currency'), /Used:/);
    for (const field of [
      'booking_window_days',
      'cancellation_cutoff_hours',
      'late_cancellation_fee_amount',
      'no_show_fee_amount',
      'max_active_bookings',
    ]) {
      assert.match(
        described(field),
        /Stored for the facility's other systems; this service does not enforce it/,
      );
    }
    assert.match(described('guest_passes_per_month'), /Enforced by access decisions/);
  });

  test('bounds, types, unknown and read-only fields are 400 with every problem listed', async () => {
    const facility = api.newFacility();
    const response = await api.patch(policyUrl(facility), {
      booking_window_days: 366,
      cancellation_cutoff_hours: -1,
      currency: 'usd',
      allow_freeze: 'yes',
      min_member_age: 121,
      facility_id: 5,
      colour: 'red',
    });
    assertInvalid(
      response,
      '/booking_window_days',
      '/cancellation_cutoff_hours',
      '/currency',
      '/allow_freeze',
      '/min_member_age',
      '/facility_id',
      '/colour',
    );
    const unchanged = await api.get(policyUrl(facility));
    assert.equal(unchanged.body.booking_window_days, 14);
  });

  test('null is 400 for non-nullable fields', async () => {
    const facility = api.newFacility();
    assertInvalid(await api.patch(policyUrl(facility), { currency: null }), '/currency');
  });
});

describeEachDialect('policy: ETag, If-Match and audit', (api) => {
  const policyUrl = (facilityId: number) => `/admin/facilities/${facilityId}/policy`;

  test('GET and PATCH carry a strong ETag that changes with a change and not with a no-op', async () => {
    const facility = api.newFacility();
    const read = await api.get(policyUrl(facility));
    assert.match(String(read.headers.etag), /^"[A-Za-z0-9_-]+"$/);
    const noop = await api.patch(policyUrl(facility), { currency: 'USD' });
    assert.equal(noop.headers.etag, read.headers.etag);
    const changed = await api.patch(policyUrl(facility), { currency: 'GBP' });
    assert.notEqual(changed.headers.etag, read.headers.etag);
    assert.equal((await api.get(policyUrl(facility))).headers.etag, changed.headers.etag);
  });

  test('PATCH with a stale If-Match is 412 precondition_failed and changes nothing', async () => {
    const facility = api.newFacility();
    const stale = String((await api.get(policyUrl(facility))).headers.etag);
    await api.patch(policyUrl(facility), { guest_passes_per_month: 3 });
    const refused = await api.patch(
      policyUrl(facility),
      { guest_passes_per_month: 9 },
      { 'if-match': stale },
    );
    assertProblem(refused, 412, 'precondition_failed');
    assert.equal((await api.get(policyUrl(facility))).body.guest_passes_per_month, 3);
  });

  test('PATCH with the current If-Match, or *, applies the change and answers a new ETag', async () => {
    const facility = api.newFacility();
    const current = String((await api.get(policyUrl(facility))).headers.etag);
    const ok = await api.patch(policyUrl(facility), { guest_passes_per_month: 4 }, { 'if-match': current });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.body.guest_passes_per_month, 4);
    assert.notEqual(ok.headers.etag, current);
    // * matches whatever the policy is now, though the caller never read it.
    const star = await api.patch(policyUrl(facility), { guest_passes_per_month: 5 }, { 'if-match': '*' });
    assert.equal(star.status, 200, star.text);
    assert.equal(star.body.guest_passes_per_month, 5);
    assert.notEqual(star.headers.etag, ok.headers.etag);
    const read = await api.get(policyUrl(facility));
    assert.deepEqual([read.body.guest_passes_per_month, read.headers.etag], [5, star.headers.etag]);
    // The ETag that * stood for is stale now: a PATCH with it changes nothing.
    assertProblem(
      await api.patch(
        policyUrl(facility),
        { guest_passes_per_month: 6 },
        { 'if-match': String(ok.headers.etag) },
      ),
      412,
      'precondition_failed',
    );
    assert.equal((await api.get(policyUrl(facility))).body.guest_passes_per_month, 5);
  });

  test('a change is in the audit trail with before and after values; a no-op is not', async () => {
    const facility = api.newFacility();
    await api.patch(policyUrl(facility), { booking_window_days: 20, currency: 'USD' });
    await api.patch(policyUrl(facility), { booking_window_days: 20 });
    const events = await api.get(`/admin/facilities/${facility}/audit-events?resource_type=policy`);
    assert.equal(events.status, 200);
    assert.equal(events.body.audit_events.length, 1);
    const [event] = events.body.audit_events;
    assert.equal(event.action, 'update');
    assert.equal(event.resource_id, String(facility));
    assert.deepEqual(event.changes, { booking_window_days: { before: 14, after: 20 } });
  });
});
