import type { Plan, PlanUpdate } from '@facility-admin/client';
import { useState } from 'preact/hooks';
import { AuditTimeline } from '../audit';
import { useFacility } from '../context';
import { formatMoney, formatTimestamp } from '../format';
import { href, navigate } from '../router';
import { Badge, ConfirmDialog, Loading, ProblemNotice, ScreenTitle, useLoad } from '../ui';
import { EntitlementsEditor } from './entitlements';
import { PlanForm } from './form';
import { PERIOD_WORDS, planState } from './list';

type Pending = 'archive' | 'purge' | null;

/** One plan: its fields, edit, archive / restore / purge (each confirmed), its entitlements and history. */
export function PlanPage({ planId }: { planId: number }) {
  const { client, facilityId, canWrite, timeZone } = useFacility();
  const loaded = useLoad(() => client.plans.get(facilityId, planId), [facilityId, planId]);
  const [editing, setEditing] = useState(false);
  const [pending, setPending] = useState<Pending>(null);
  const [error, setError] = useState<unknown>();
  const [round, setRound] = useState(0);
  const reload = () => {
    setError(undefined);
    setEditing(false);
    loaded.reload();
    setRound((n) => n + 1);
  };
  if (loaded.state === 'loading' && !loaded.data) return <Loading what="the plan" />;
  if (loaded.state === 'error' && !loaded.data) return <ProblemNotice error={loaded.error} />;
  const { data: plan, etag } = loaded.data as { data: Plan; etag: string };
  const archived = plan.deleted_at !== null;
  const write = async (change: () => Promise<unknown>, after: () => void = reload) => {
    setError(undefined);
    try {
      await change();
      after();
    } catch (caught) {
      setError(caught);
    }
  };
  return (
    <section>
      <p class="crumbs">
        <a href={href(facilityId, 'plans')}>Plans</a> /
      </p>
      <div class="screen-head">
        <ScreenTitle>{plan.name}</ScreenTitle>
        <Badge value={planState(plan)} />
      </div>
      {error !== undefined && <ProblemNotice error={error} onReload={reload} />}
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
                write(() => client.plans.update(facilityId, planId, { is_active: true }, { ifMatch: etag }))
              }
            >
              Restore
            </button>
          ) : (
            <button type="button" onClick={() => setPending('archive')}>
              Archive
            </button>
          )}
          <button type="button" class="danger" onClick={() => setPending('purge')}>
            Delete for good
          </button>
        </fieldset>
      )}
      {pending && (
        <ConfirmDialog
          title={pending === 'archive' ? `Archive ${plan.name}?` : `Delete ${plan.name} for good?`}
          confirmLabel={pending === 'archive' ? 'Archive' : 'Delete for good'}
          danger={pending === 'purge'}
          onCancel={() => setPending(null)}
          onConfirm={() => {
            const purge = pending === 'purge';
            setPending(null);
            write(
              () => client.plans.delete(facilityId, planId, { ifMatch: etag, hardDelete: purge }),
              purge ? () => navigate(href(facilityId, 'plans')) : reload,
            );
          }}
        >
          {pending === 'archive' ? (
            <p>
              The plan takes no new members and becomes read-only. Members on it keep it. You can restore it.
            </p>
          ) : (
            <p>
              The plan and its entitlements are removed. This cannot be undone, and is refused while any
              member refers to it.
            </p>
          )}
        </ConfirmDialog>
      )}
      {editing ? (
        <PlanForm
          plan={plan}
          defaultCurrency={plan.currency}
          submitLabel="Save changes"
          onCancel={() => setEditing(false)}
          onReload={reload}
          onSubmit={async (body) => {
            await client.plans.update(facilityId, planId, body as PlanUpdate, { ifMatch: etag });
            reload();
          }}
        />
      ) : (
        <dl class="details">
          <dt>Price</dt>
          <dd>
            {formatMoney(plan.price_amount, plan.currency)}{' '}
            {PERIOD_WORDS[plan.billing_period] ?? plan.billing_period}
          </dd>
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
      <EntitlementsEditor key={round} planId={planId} readOnly={!canWrite || archived} />
      <h2>History</h2>
      <AuditTimeline key={round} resourceType="plan" resourceId={String(planId)} />
    </section>
  );
}
