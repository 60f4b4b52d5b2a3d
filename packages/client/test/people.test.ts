/**
 * The client's people operations against the real service, listening on a
 * port, on SQLite and PostgreSQL: facilities by name, staff, API keys, and
 * a person's sign-in with a link and a password (the session cookie carried
 * by hand, as a browser would).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeEachDialect } from '../../../test/harness.js';
import { createClient } from '../src/index.js';
import { listening, ON_THE_TEST_CLOCK, problemOf, WITH_API_KEY } from './service.js';

describeEachDialect(
  'the client: facilities, staff, API keys and sign-in',
  (api) => {
    const { clientOf, baseUrl } = listening(api);

    test('facilities: create, read, rename with ifMatch, list, archive', async () => {
      const client = clientOf();
      const name = `Riverside ${api.dialect}`;
      const created = await client.facilities.create({ name, timezone: 'Europe/London', currency: 'GBP' });
      assert.equal(created.data.name, name);
      const read = await client.facilities.get(created.data.id);
      assert.deepEqual(read, created);
      const renamed = await client.facilities.update(
        created.data.id,
        { name: `${name} Pool` },
        { ifMatch: read.etag },
      );
      assert.equal(renamed.data.name, `${name} Pool`);
      const listed = await client.facilities.list();
      assert.ok(listed.facilities.some((facility) => facility.id === created.data.id));
      await client.facilities.update(created.data.id, { status: 'archived' });
      assert.ok(
        !(await client.facilities.list()).facilities.some((facility) => facility.id === created.data.id),
      );
      assert.equal((await client.policy.get(created.data.id)).data.currency, 'GBP');
    });

    test('staff and a person: invite, sign in with the link, then with the password, sign out', async () => {
      const client = clientOf();
      const email = `ana.${api.dialect}@example.test`;
      const invited = await client.staff.invite({
        email,
        name: 'Ana Silva',
        roles: [{ facility_id: null, role: 'viewer' }],
      });
      assert.equal(invited.data.state, 'invited');
      const token = new URL(invited.data.invitation?.url ?? '').hash.split('token=')[1] ?? '';
      let cookie = '';
      // A browser's cookie jar, by hand: the client leaves cookies to the fetch it is given.
      const person = createClient({
        baseUrl: baseUrl(),
        fetch: async (request) => {
          const headers = new Headers(request.headers);
          if (cookie) headers.set('cookie', cookie);
          headers.set('origin', baseUrl());
          const response = await fetch(new Request(request, { headers }));
          const set = response.headers.get('set-cookie');
          if (set) cookie = set.split(';')[0] ?? '';
          return response;
        },
      });
      assert.deepEqual(await person.session.options(), { password: true, password_reset: false, oidc: null });
      const linked = await person.session.signInWithLink({ token, password: 'correct horse battery staple' });
      assert.equal(linked.actor.name, 'Ana Silva');
      assert.equal((await person.session.get()).actor.type, 'staff_user');
      await person.session.signOut();
      assert.equal((await problemOf(person.session.get())).status, 401);
      await person.session.signIn({ email, password: 'correct horse battery staple' });
      assert.equal((await person.session.get()).roles[0]?.role, 'viewer');
      const mine = (await person.session.listMine()).sessions;
      assert.deepEqual(
        mine.map((session) => [session.current, session.method]),
        [[true, 'password']],
      );
      await person.session.changePassword({
        current_password: 'correct horse battery staple',
        new_password: 'a new and longer passphrase',
      });
      assert.equal((await person.session.get()).actor.name, 'Ana Silva');
      const renewed = (await person.session.listMine()).sessions[0];
      assert.equal(
        (await problemOf(person.session.endMine((renewed?.id ?? 0) + 1000))).code,
        'session_not_found',
      );
      await person.session.requestPasswordReset({ email });
      await person.session.signOutEverywhere();
      assert.equal((await problemOf(person.session.get())).status, 401);

      const read = await client.staff.get(invited.data.id);
      assert.equal(read.data.state, 'active');
      const reset = await client.staff.sendPasswordReset(invited.data.id);
      assert.match(reset.invitation?.url ?? '', /purpose=password_reset/);
      const changed = await client.staff.update(
        invited.data.id,
        { state: 'disabled' },
        { ifMatch: read.etag },
      );
      assert.equal(changed.data.state, 'disabled');
      assert.ok((await client.staff.list({ state: 'disabled' })).staff.some((p) => p.id === invited.data.id));
      const other = await client.staff.invite({
        email: `bo.${api.dialect}@example.test`,
        name: 'Bo',
        roles: [],
      });
      assert.match(
        (await client.staff.resendInvitation(other.data.id)).invitation?.url ?? '',
        /purpose=invitation/,
      );
    });

    test('API keys: create (the secret once), list, revoke', async () => {
      const client = clientOf();
      const created = await client.apiKeys.create({
        name: `door ${api.dialect}`,
        role: 'front_desk',
        facility_ids: null,
      });
      assert.ok(created.secret);
      const asKey = clientOf({ apiKey: created.secret });
      assert.equal((await asKey.session.get()).role, 'front_desk');
      const listed = (await client.apiKeys.list()).api_keys.find((key) => key.id === created.id);
      assert.equal(listed?.secret, undefined);
      await client.apiKeys.revoke(created.id);
      assert.equal((await problemOf(asKey.session.get())).status, 401);
    });
  },
  WITH_API_KEY,
  ON_THE_TEST_CLOCK,
);
