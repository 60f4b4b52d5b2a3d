import type { BillingPeriod, Plan } from '@facility-admin/client';
import { useFacility } from '../context';
import { formatMoney } from '../format';
import { ListState, readAll, useLoad } from '../resource';
import { href } from '../router';
import { Badge, ScreenTitle } from '../ui';

export function planState(plan: Plan): string {
  if (plan.deleted_at) return 'archived';
  return plan.is_active ? 'active' : 'inactive';
}

type PricedAs = Pick<Plan, 'price_amount' | 'currency' | 'billing_period'>;

const PERIOD_WORDS: Record<BillingPeriod, string> = {
  one_time: 'once',
  weekly: 'a week',
  monthly: 'a month',
  quarterly: 'a quarter',
  yearly: 'a year',
};

/** A plan's (or a template's) price and how often it is charged: "$49.00 a month". */
export function priceText({ price_amount, currency, billing_period }: PricedAs): string {
  // A period a newer service adds, as it is named.
  return `${formatMoney(price_amount, currency)} ${PERIOD_WORDS[billing_period] ?? billing_period}`;
}

/** Every plan of the facility, inactive and archived ones too. */
export function PlansList() {
  const { client, facilityId, can } = useFacility();
  const canWrite = can('plans.write');
  const list = useLoad(
    () =>
      readAll(
        client.paginate((cursor) =>
          client.plans.list(facilityId, { include_inactive: true, limit: 200, cursor }),
        ),
      ),
    [facilityId],
  );
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
      <ListState
        load={list}
        what="plans"
        count={list.data?.length}
        empty="No plans yet. Start from a template, or from scratch."
      />
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
                  <td data-label="Price">{priceText(plan)}</td>
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
