import type { MemberCreate } from '@facility-admin/client';
import { useState } from 'preact/hooks';
import { idempotencyKeys } from '../api';
import { useFacility } from '../context';
import { href, navigate } from '../router';
import { Loading, ProblemNotice, ScreenTitle } from '../ui';
import { bodyOf, MemberForm } from './form';
import { usePlans } from './list';

/** Enrol a member. The form keeps one Idempotency-Key until it succeeds: a double submit creates one member. */
export function MemberCreateScreen() {
  const { client, facilityId, canWrite } = useFacility();
  const plans = usePlans();
  const [keyFor] = useState(idempotencyKeys);
  if (!canWrite) return <ProblemNotice error={new Error('This API key may only read.')} />;
  return (
    <section>
      <ScreenTitle>Enrol a member</ScreenTitle>
      {plans.state === 'loading' && <Loading what="plans" />}
      {plans.state === 'error' && <ProblemNotice error={plans.error} />}
      {plans.state === 'ok' && (
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
