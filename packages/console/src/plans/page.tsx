import type { PlanUpdate } from '@facility-admin/client';
import { useState } from 'preact/hooks';
import { AuditTimeline } from '../audit';
import { useConfirm } from '../confirm';
import { useFacility } from '../context';
import { formatMoney, formatTimestamp } from '../format';
import { NotLoaded, useResource } from '../resource';
import { href, navigate } from '../router';
import { Badge, ResourceHead } from '../ui';
import { WriteOutcome } from '../write';
import { EntitlementsEditor } from './entitlements';
import { PlanForm } from './form';
import { planState, priceText } from './list';

/** One plan: its fields, edit, archive / restore / purge (each confirmed), its entitlements and history. */
export function PlanPage({ planId }: { planId: number }) {
  const { client, facilityId, can, timeZone } = useFacility();
  const canWrite = can('plans.write');
  const [editing, setEditing] = useState(false);
  const loaded = useResource(() => client.plans.get(facilityId, planId), [facilityId, planId], {
    onReload: () => setEditing(false),
  });
  const removal = useConfirm<'archive' | 'purge'>();
  if (loaded.data === undefined) return <NotLoaded load={loaded} what="the plan" />;
  const { data: plan, etag } = loaded.data;
  const archived = plan.deleted_at !== null;
  return (
    <section>
      <ResourceHead list="plans" label="Plans" title={plan.name}>
        <Badge value={planState(plan)} />
      </ResourceHead>
      <WriteOutcome write={loaded} onReload={loaded.reload} />
      {canWrite && !editing && (
        <fieldset class="actions wrap">
          <legend class="visually-hidden">Plan actions</legend>
          {!archived && (
            <button type="button" onClick={() => setEditing(true)}>
              Edit
            </button>
          )}
          {archived ? (
            <button
              type="button"
              onClick={() =>
                loaded.write(() =>
                  client.plans.update(facilityId, planId, { is_active: true }, { ifMatch: etag }),
                )
              }
            >
              Restore
            </button>
          ) : (
            <button type="button" onClick={() => removal.ask('archive')}>
              Archive
            </button>
          )}
          <button type="button" class="danger" onClick={() => removal.ask('purge')}>
            Delete for good
          </button>
        </fieldset>
      )}
      {removal.dialog((what) =>
        what === 'archive'
          ? {
              title: `Archive ${plan.name}?`,
              confirmLabel: 'Archive',
              body: (
                <p>
                  The plan takes no new members and becomes read-only. Members on it keep it. You can restore
                  it.
                </p>
              ),
              onConfirm: () =>
                loaded.write(() =>
                  client.plans.delete(facilityId, planId, { ifMatch: etag, hardDelete: false }),
                ),
            }
          : {
              title: `Delete ${plan.name} for good?`,
              confirmLabel: 'Delete for good',
              danger: true,
              body: (
                <p>
                  The plan and its entitlements are removed. This cannot be undone, and is refused while any
                  member refers to it.
                </p>
              ),
              onConfirm: () =>
                loaded.write(
                  () => client.plans.delete(facilityId, planId, { ifMatch: etag, hardDelete: true }),
                  {
                    after: () => navigate(href(facilityId, 'plans')),
                  },
                ),
            },
      )}
      {editing ? (
        <PlanForm
          plan={plan}
          defaultCurrency={plan.currency}
          submitLabel="Save changes"
          onCancel={() => setEditing(false)}
          onReload={loaded.reload}
          onSubmit={async (body) => {
            await client.plans.update(facilityId, planId, body as PlanUpdate, { ifMatch: etag });
            loaded.saved();
          }}
        />
      ) : (
        <dl class="details">
          <dt>Price</dt>
          <dd>{priceText(plan)}</dd>
          <dt>Joining fee</dt>
          <dd>{formatMoney(plan.joining_fee_amount, plan.currency)}</dd>
          <dt>Duration</dt>
          <dd>{plan.duration_days === null ? 'Open-ended' : `${plan.duration_days} days`}</dd>
          <dt>Capacity</dt>
          <dd>{plan.max_members ?? 'No cap'}</dd>
          <dt>Sport id</dt>
          <dd>{plan.sport_id ?? 'All sports'}</dd>
          <dt>Template</dt>
          <dd>{plan.template_id ?? '—'}</dd>
          <dt>Description</dt>
          <dd class="pre">{plan.description ?? '—'}</dd>
          <dt>Updated</dt>
          <dd>{formatTimestamp(plan.updated_at, timeZone)}</dd>
          {archived && (
            <>
              <dt>Archived</dt>
              <dd>{formatTimestamp(plan.deleted_at, timeZone)}</dd>
            </>
          )}
        </dl>
      )}
      <h2 id="entitlements-title">Entitlements</h2>
      <EntitlementsEditor key={loaded.round} planId={planId} readOnly={!canWrite || archived} />
      <h2>History</h2>
      <AuditTimeline key={loaded.round} resourceType="plan" resourceId={String(planId)} />
    </section>
  );
}
