import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { bearer } from '../../../test/access-table.js';
import { assertInvalid, assertProblem, describeEachDialect } from '../../../test/harness.js';
import type { Role } from '../../core/roles.js';
import { createApiKey } from '../../infrastructure/api-keys/api-key.service.js';

const ADMIN_KEY = 'facilities-test-admin-key';
const admin = bearer(ADMIN_KEY);

describeEachDialect(
  'facilities: by name, every id a facility',
  (api) => {
    const keyOf = async (role: Role, facilityIds: number[] | 'all') =>
      bearer((await createApiKey(api.app.db, { name: `${role} key`, role, facilityIds })).secret);
    // Created facilities take ids above every id in use: far above those the other tests use by number.
    before(async () => {
      const far = await api.post('/admin/facilities/500000/plans', { name: 'Far away' }, admin);
      assert.equal(far.status, 201, far.text);
    });

    test('a facility never named reads with name null', async () => {
      const id = api.newFacility();
      const response = await api.get(`/admin/facilities/${id}`, admin);
      assert.equal(response.status, 200, response.text);
      assert.deepEqual(response.body, {
        id,
        name: null,
        address: null,
        contact_email: null,
        phone: null,
        status: 'active',
        archived_at: null,
        created_at: null,
        updated_at: null,
      });
    });

    test('create: 201 with Location, an id above every id in use, and its policy seeded', async () => {
      const response = await api.post(
        '/admin/facilities',
        { name: '  Riverside  ', timezone: 'Europe/London', currency: 'GBP', phone: '+44 117 496 0000' },
        admin,
      );
      assert.equal(response.status, 201, response.text);
      const { id, name, phone, status } = response.body;
      assert.deepEqual(
        { name, phone, status },
        { name: 'Riverside', phone: '+44 117 496 0000', status: 'active' },
      );
      assert.ok(id > 500000, `id ${id} is above every id in use`);
      assert.equal(response.headers.location, `/admin/facilities/${id}`);
      const policy = await api.get(`/admin/facilities/${id}/policy`, admin);
      assert.deepEqual([policy.body.timezone, policy.body.currency], ['Europe/London', 'GBP']);
      assert.deepEqual((await api.get(`/admin/facilities/${id}`, admin)).body, response.body);
    });

    test('names are unique among facilities that are not archived, ignoring case', async () => {
      const first = await api.post('/admin/facilities', { name: 'North Pool' }, admin);
      assertProblem(
        await api.post('/admin/facilities', { name: 'north pool' }, admin),
        409,
        'facility_name_conflict',
      );
      const url = `/admin/facilities/${first.body.id}`;
      assert.equal((await api.patch(url, { status: 'archived' }, admin)).body.status, 'archived');
      const second = await api.post('/admin/facilities', { name: 'NORTH POOL' }, admin);
      assert.equal(second.status, 201, second.text);
      assertProblem(await api.patch(url, { status: 'active' }, admin), 409, 'facility_name_conflict');
    });

    test('PATCH names a facility used by its id only, against the ETag its GET gave', async () => {
      const id = api.newFacility();
      await api.post(`/admin/facilities/${id}/members`, { first_name: 'Ada' }, admin);
      const read = await api.get(`/admin/facilities/${id}`, admin);
      assert.equal(read.body.name, null);
      const named = await api.patch(
        `/admin/facilities/${id}`,
        { name: 'Harbour Gym' },
        { ...admin, 'if-match': String(read.headers.etag) },
      );
      assert.equal(named.status, 200, named.text);
      assert.equal(named.body.name, 'Harbour Gym');
      assertProblem(
        await api.patch(
          `/admin/facilities/${id}`,
          { phone: '1' },
          { ...admin, 'if-match': String(read.headers.etag) },
        ),
        412,
        'precondition_failed',
      );
      const unused = api.newFacility();
      const unusedRead = await api.get(`/admin/facilities/${unused}`, admin);
      const first = await api.patch(
        `/admin/facilities/${unused}`,
        { name: 'Never used before' },
        { ...admin, 'if-match': String(unusedRead.headers.etag) },
      );
      assert.equal(first.status, 200, first.text);
    });

    test('the list: facilities created, named or written to; archived ones only when asked', async () => {
      const written = api.newFacility();
      await api.post(`/admin/facilities/${written}/plans`, { name: 'Written' }, admin);
      const created = (await api.post('/admin/facilities', { name: 'Listed' }, admin)).body.id;
      const archived = (await api.post('/admin/facilities', { name: 'Gone quiet' }, admin)).body.id;
      await api.patch(`/admin/facilities/${archived}`, { status: 'archived' }, admin);
      const ids = async (query: string) => {
        const all: number[] = [];
        let cursor: string | null = null;
        do {
          const suffix: string = cursor ? `&cursor=${cursor}` : '';
          const page = await api.get(`/admin/facilities?limit=2${query}${suffix}`, admin);
          assert.equal(page.status, 200, page.text);
          all.push(...page.body.facilities.map((facility: { id: number }) => facility.id));
          cursor = page.body.next_cursor;
        } while (cursor);
        return all;
      };
      const active = await ids('');
      assert.ok(active.includes(written) && active.includes(created) && !active.includes(archived));
      assert.deepEqual(
        [...active].sort((a, b) => a - b),
        active,
        'by id',
      );
      const archivedOnly = await ids('&status=archived');
      assert.ok(archivedOnly.includes(archived) && !archivedOnly.includes(created));
      assert.ok((await ids('&status=all')).includes(archived));
    });

    test('a caller with some facilities lists exactly those, unnamed ones included', async () => {
      const [named, unnamed, other] = [api.newFacility(), api.newFacility(), api.newFacility()];
      await api.patch(`/admin/facilities/${named}`, { name: `Scoped ${named}` }, admin);
      await api.patch(`/admin/facilities/${other}`, { name: `Other ${other}` }, admin);
      const viewer = await keyOf('viewer', [unnamed, named]);
      const page = await api.get('/admin/facilities', viewer);
      assert.deepEqual(
        page.body.facilities.map((facility: { id: number; name: string | null }) => [
          facility.id,
          facility.name,
        ]),
        [
          [named, `Scoped ${named}`],
          [unnamed, null],
        ],
      );
      assertProblem(await api.get(`/admin/facilities/${other}`, viewer), 403, 'forbidden');
    });

    test('only a role with every facility may create one; only owners change one', async () => {
      const id = api.newFacility();
      const scopedOwner = await keyOf('owner', [id]);
      assertProblem(
        await api.post('/admin/facilities', { name: 'Not mine to make' }, scopedOwner),
        403,
        'forbidden',
      );
      assert.equal(
        (await api.patch(`/admin/facilities/${id}`, { name: `Mine ${id}` }, scopedOwner)).status,
        200,
      );
      for (const role of ['manager', 'front_desk', 'viewer'] as const) {
        const key = await keyOf(role, 'all');
        assertProblem(await api.patch(`/admin/facilities/${id}`, { name: 'Renamed' }, key), 403, 'forbidden');
        assertProblem(await api.post('/admin/facilities', { name: `By ${role}` }, key), 403, 'forbidden');
      }
      assert.equal((await api.get(`/admin/facilities/${id}`, admin)).body.name, `Mine ${id}`);
    });

    test('creates and changes are in the audit trail and the feed, with who made them', async () => {
      const created = await api.post('/admin/facilities', { name: 'Journaled' }, admin);
      const id = created.body.id;
      await api.patch(`/admin/facilities/${id}`, { address: '1 Dock Road' }, admin);
      const trail = await api.get(`/admin/facilities/${id}/audit-events?resource_type=facility`, admin);
      assert.deepEqual(
        trail.body.audit_events.map((entry: { action: string; actor: unknown }) => [
          entry.action,
          entry.actor,
        ]),
        [
          ['create', { type: 'api_key', id: 0, name: 'ADMIN_API_KEY' }],
          ['update', { type: 'api_key', id: 0, name: 'ADMIN_API_KEY' }],
        ],
      );
      const feed = await api.get(`/admin/facilities/${id}/events`, admin);
      assert.deepEqual(
        feed.body.events.map((event: { type: string }) => event.type),
        ['facility.created', 'facility.updated'],
      );
      assert.deepEqual(feed.body.events[1].actor, { type: 'api_key', id: 0, name: 'ADMIN_API_KEY' });
    });

    test('bad input is 400 and writes nothing', async () => {
      assertInvalid(await api.post('/admin/facilities', { name: '   ' }, admin), '/name');
      assertInvalid(
        await api.post('/admin/facilities', { name: 'Mail', contact_email: 'nope' }, admin),
        '/contact_email',
      );
      assertInvalid(
        await api.post('/admin/facilities', { name: 'Zone', timezone: 'Mars/Olympus' }, admin),
        '/timezone',
      );
      const list = await api.get('/admin/facilities?status=all&limit=1000', admin);
      const names = list.body.facilities.map((facility: { name: string | null }) => facility.name);
      assert.ok(!names.includes('Mail') && !names.includes('Zone'));
    });
  },
  { authMode: 'api-key', adminApiKey: ADMIN_KEY },
);
