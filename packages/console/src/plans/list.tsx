import type { Plan } from '@facility-admin/client';
import { useFacility } from '../context';
import { formatMoney } from '../format';
import { href } from '../router';
import { Badge, Empty, Loading, ProblemNotice, ScreenTitle, useLoad } from '../ui';

export function planState(plan: Plan): string {
  if (plan.deleted_at) return 'archived';
  return plan.is_active ? 'active' : 'inactive';
}

export const PERIOD_WORDS: Record<string, string> = {
  one_time: 'once',
  weekly: 'a week',
  monthly: 'a month',
  quarterly: 'a quarter',
  yearly: 'a year',
};

/** Every plan of the facility, inactive and archived ones too. */
export function PlansList() {
  const { client, facilityId, canWrite } = useFacility();
  const list = useLoad(async () => {
    const all: Plan[] = [];
    for await (const plan of client.paginate((cursor) =>
      client.plans.list(facilityId, { include_inactive: true, limit: 200, cursor }),
    ))
      all.push(plan);
    return all;
  }, [facilityId]);
  return (
    <section>
      <div class="screen-head">
        <ScreenTitle>Plans</ScreenTitle>
        {canWrite && (
          <div class="actions">
            <a class="button" href={href(facilityId, 'plans', 'templates')}>
              From a template
            </a>
            <a class="button primary" href={href(facilityId, 'plans', 'new')}>
              New plan
            </a>
          </div>
        )}
      </div>
      {list.state === 'error' && <ProblemNotice error={list.error} />}
      {list.state === 'loading' && !list.data && <Loading what="plans" />}
      {list.state === 'ok' && list.data.length === 0 && (
        <Empty>No plans yet. Start from a template, or from scratch.</Empty>
      )}
      {list.data && list.data.length > 0 && (
        <div class="table-wrap">
          <table class="list">
            <caption class="visually-hidden">Plans, with inactive and archived ones</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Price</th>
                <th scope="col">Joining fee</th>
                <th scope="col">Capacity</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((plan) => (
                <tr key={plan.id}>
                  <td data-label="Name">
                    <a href={href(facilityId, 'plans', plan.id)}>{plan.name}</a>
                  </td>
                  <td data-label="Price">
                    {formatMoney(plan.price_amount, plan.currency)}{' '}
                    {PERIOD_WORDS[plan.billing_period] ?? plan.billing_period}
                  </td>
                  <td data-label="Joining fee">{formatMoney(plan.joining_fee_amount, plan.currency)}</td>
                  <td data-label="Capacity">{plan.max_members ?? 'No cap'}</td>
                  <td data-label="State">
                    <Badge value={planState(plan)} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
