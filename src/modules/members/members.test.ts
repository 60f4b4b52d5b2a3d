import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertInvalid, describeEachDialect, testClock } from '../../../test/harness.js';
import { MEMBER_FIELDS, memberRequests, nulls } from './members.fixtures.js';

/**
 * Members: creating one, its fields and their rules, joined_on today in the
 * facility's time zone (on the app's test clock). Emails and dates:
 * members-rules.test.ts; updating and deleting: members-patch-delete.test.ts.
 */

/** The app's clock: "today" is the same day all through a test, whenever it runs. */
const clock = testClock('2026-08-14T12:00:00.000Z');
const todayIn = (timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone }).format(clock.now());

describeEachDialect(
  'members: create and fields',
  (api) => {
    const { membersUrl, memberUrl, post, patch, read, createMember, setPolicy } = memberRequests(api);

    test('create with only first_name fills the defaults; joined_on is today in the facility timezone', async () => {
      // 25 hours apart, so the two zones never share a date: joined_on cannot be right by chance.
      for (const timezone of ['Pacific/Kiritimati', 'Pacific/Pago_Pago']) {
        const facility = api.newFacility();
        await setPolicy(facility, { timezone });
        const response = await post(facility, { first_name: 'Ann' });
        assert.equal(response.status, 201);
        const { id, created_at, updated_at, status_changed_at, ...rest } = response.body;
        assert.equal(response.headers.location, memberUrl(facility, id));
        assert.deepEqual(rest, {
          ...nulls('last_name email phone date_of_birth sport_id plan_id notes deleted_at'),
          ...nulls('ends_on status_reason waiver_signed_at external_id last_check_in_at'),
          facility_id: facility,
          first_name: 'Ann',
          role: 'member',
          status: 'active',
          joined_on: todayIn(timezone),
          allowed_transitions: ['frozen', 'suspended', 'cancelled'],
        });
        assert.match(created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
        assert.deepEqual([updated_at, status_changed_at], [created_at, created_at]);
        assert.deepEqual(await read(facility, id), response.body);
      }
    });

    test('every field is always present and stored as sent', async () => {
      const facility = api.newFacility();
      const plan = await api.post(`/admin/facilities/${facility}/plans`, { name: 'Gold' });
      const body = {
        ...{ first_name: 'Bo', last_name: 'Lee', email: 'Bo.Lee@Example.com', phone: '+1 (555) 010-99' },
        ...{ date_of_birth: '1990-02-28', sport_id: 7, role: 'coach', status: 'pending' },
        ...{
          plan_id: plan.body.id,
          joined_on: '2024-01-15',
          notes: 'Prefers mornings',
          external_id: 'CRM-7',
        },
      };
      const created = await createMember(facility, body);
      assert.deepEqual(Object.keys(created).sort(), MEMBER_FIELDS);
      assert.deepEqual({ ...created, ...body }, created);
      assert.deepEqual(Object.keys(await read(facility, created.id)).sort(), MEMBER_FIELDS);
    });

    test('create takes status pending or active only', async () => {
      const facility = api.newFacility();
      assert.equal((await createMember(facility, { first_name: 'P', status: 'pending' })).status, 'pending');
      for (const status of ['frozen', 'suspended', 'cancelled', 'removed', 'Active']) {
        assertInvalid(await post(facility, { first_name: 'X', status }), '/status');
      }
    });

    test('first_name is required and trimmed; blank is 400', async () => {
      const facility = api.newFacility();
      assert.equal((await createMember(facility, { first_name: '  Ann  ' })).first_name, 'Ann');
      for (const body of [{ last_name: 'Lee' }, { first_name: '' }, { first_name: '   ' }]) {
        assertInvalid(await post(facility, body), '/first_name');
      }
    });

    test('the longest allowed values pass; one character more is 400', async () => {
      const facility = api.newFacility();
      const email = `${'a'.repeat(64)}@${'b'.repeat(185)}.com`;
      const text = (length: number) => 'x'.repeat(length);
      const longest = {
        first_name: text(100),
        last_name: text(100),
        email,
        phone: '1'.repeat(32),
        notes: text(2000),
      };
      const created = await createMember(facility, longest);
      assert.deepEqual({ ...created, ...longest }, created);
      const oneMore = { first_name: text(101), last_name: text(101), email: `a${email}`, notes: text(2001) };
      const response = await post(facility, { ...oneMore, phone: '1'.repeat(33) });
      assertInvalid(response, '/first_name', '/last_name', '/email', '/notes', '/phone');
    });

    test('formats and types of every field are checked, every problem listed at once', async () => {
      const facility = api.newFacility();
      const response = await post(facility, {
        ...{ first_name: 5, last_name: true, email: 'not-an-email', phone: '555-CALL-NOW', sport_id: 0 },
        ...{
          date_of_birth: '1990-02-30',
          role: 'owner',
          plan_id: 1.5,
          joined_on: '15/01/2024',
          notes: ['x'],
        },
      });
      const fields = 'first_name last_name email phone sport_id date_of_birth role plan_id joined_on notes';
      const body = assertInvalid(response, ...fields.split(' ').map((field) => `/${field}`));
      assert.ok(body.errors.every((e: { location: string }) => e.location === 'body'));
      assertInvalid(await post(facility, { first_name: 'A', sport_id: '3' }), '/sport_id');
      assert.equal((await api.get(membersUrl(facility))).body.members.length, 0);
    });

    test('a year-0000 date is 400 like any other invalid date', async () => {
      const facility = api.newFacility();
      const yearZero = '0000-01-01';
      const response = await post(facility, {
        first_name: 'A',
        joined_on: yearZero,
        date_of_birth: yearZero,
      });
      assertInvalid(response, '/joined_on', '/date_of_birth');
    });

    test('text with a NUL character is 400, on both databases', async () => {
      const facility = api.newFacility();
      assertInvalid(
        await post(facility, { first_name: 'A\u0000', notes: 'x\u0000' }),
        '/first_name',
        '/notes',
      );
      assertInvalid(await api.get(`${membersUrl(facility)}?q=a%00`), 'q');
    });

    test('text with an unpaired surrogate is 400, on both databases, and nothing is written', async () => {
      const facility = api.newFacility();
      const lone = '\ud800'.repeat(100);
      assertInvalid(await post(facility, { first_name: lone, notes: 'x\udfffy' }), '/first_name', '/notes');
      assert.equal((await post(facility, { first_name: 'Zoë 😀' })).status, 201);
      assert.deepEqual(
        (await api.get(membersUrl(facility))).body.members.map((m: { first_name: string }) => m.first_name),
        ['Zoë 😀'],
      );
    });

    test('unknown and read-only fields are 400 on create and PATCH', async () => {
      const facility = api.newFacility();
      const member = await createMember(facility);
      const readOnly = ['id', 'facility_id', 'created_at', 'updated_at', 'deleted_at', 'status_changed_at'];
      for (const field of [...readOnly, 'nickname']) {
        const value = field.endsWith('_at') ? member.created_at : 1;
        assertInvalid(await post(facility, { first_name: 'A', [field]: value }), `/${field}`);
        assertInvalid(await patch(facility, member.id, { [field]: value }), `/${field}`);
      }
      assert.deepEqual(await read(facility, member.id), member);
    });

    test('null clears a nullable field and is 400 for first_name, role, status and joined_on', async () => {
      const facility = api.newFacility();
      const member = await createMember(facility, {
        first_name: 'A',
        last_name: 'B',
        email: 'a@b.io',
        notes: 'n',
      });
      assertInvalid(
        await patch(facility, member.id, { first_name: null, role: null, status: null, joined_on: null }),
        '/first_name',
        '/role',
        '/status',
        '/joined_on',
      );
      assertInvalid(await post(facility, { first_name: null }), '/first_name');
      assertInvalid(
        await post(facility, { first_name: 'C', status: null, joined_on: null }),
        '/status',
        '/joined_on',
      );
      assert.deepEqual(await read(facility, member.id), member);
      const cleared = await patch(facility, member.id, { last_name: null, email: null, notes: null });
      assert.equal(cleared.status, 200);
      assert.deepEqual(cleared.body, { ...cleared.body, ...nulls('last_name email notes') });
    });
  },
  {},
  { now: clock.now },
);
