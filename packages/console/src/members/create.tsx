import type { MemberCreate } from '@facility-admin/client';
import { useState } from 'preact/hooks';
import { idempotencyKeys } from '../api';
import { useFacility } from '../context';
import { NotLoaded } from '../resource';
import { href, navigate } from '../router';
import { ReadOnlyKey, ScreenTitle } from '../ui';
import { bodyOf, MemberForm } from './form';
import { usePlans } from './list';

/** Enrol a member. The form keeps one Idempotency-Key until it succeeds: a double submit creates one member. */
export function MemberCreateScreen() {
  const { client, facilityId, can } = useFacility();
  const canWrite = can('members.write');
  const plans = usePlans();
  const [keyFor] = useState(idempotencyKeys);
  if (!canWrite) return <ReadOnlyKey />;
  return (
    <section>
      <ScreenTitle>Enrol a member</ScreenTitle>
      {plans.data === undefined ? (
        <NotLoaded load={plans} what="plans" />
      ) : (
        <MemberForm
          plans={plans.data}
          submitLabel="Enrol"
          onCancel={() => navigate(href(facilityId, 'members'))}
          onSubmit={async (draft) => {
            const body = bodyOf(draft) as MemberCreate;
            const created = await client.members.create(facilityId, body, { idempotencyKey: keyFor(body) });
            navigate(href(facilityId, 'members', created.data.id));
          }}
        />
      )}
    </section>
  );
}
