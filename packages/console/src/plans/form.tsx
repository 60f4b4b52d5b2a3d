import { billingPeriodValues, type Plan, type PlanCreate, type PlanTemplate } from '@facility-admin/client';
import { useState } from 'preact/hooks';
import { moneyInput, parseMoney } from '../format';
import { Field, fieldErrors } from '../ui';
import { FormEnd, useWrite } from '../write';

const FIELDS = [
  'name',
  'description',
  'sport_id',
  'price_amount',
  'currency',
  'billing_period',
  'duration_days',
  'joining_fee_amount',
  'max_members',
] as const satisfies readonly (keyof PlanCreate & keyof Plan)[];
type PlanField = (typeof FIELDS)[number];
type Draft = Record<PlanField, string>;
const MONEY = new Set<PlanField>(['price_amount', 'joining_fee_amount']);
const INTEGER = new Set<PlanField>(['sport_id', 'duration_days', 'max_members']);

function draftOf(source: Partial<Plan> | undefined, currency: string): Draft {
  const draft = {} as Draft;
  const cur = source?.currency ?? currency;
  for (const f of FIELDS) {
    const value = source?.[f];
    draft[f] = MONEY.has(f)
      ? moneyInput(value as number | undefined, cur)
      : value == null
        ? ''
        : String(value);
  }
  draft.currency = cur;
  draft.billing_period ||= 'monthly';
  return draft;
}

interface Props {
  plan?: Plan;
  template?: PlanTemplate;
  defaultCurrency: string;
  submitLabel: string;
  onSubmit: (body: Record<string, unknown>) => Promise<void>;
  onCancel: () => void;
  /** After a 412: reload what the form edits. */
  onReload?: () => void;
}

/**
 * Create (from scratch or a template) and edit. Money is typed in the major unit
 * and sent in minor units. On create from a template, fields left as the
 * template has them are not sent: the service copies them.
 */
export function PlanForm({
  plan,
  template,
  defaultCurrency,
  submitLabel,
  onSubmit,
  onCancel,
  onReload,
}: Props) {
  const base = plan ?? (template ? { ...template, name: template.name } : undefined);
  const original = draftOf(base as Partial<Plan> | undefined, defaultCurrency);
  const [draft, setDraft] = useState(original);
  const save = useWrite();
  const local: Record<string, string> = {};
  const body: Record<string, unknown> = {};
  for (const f of FIELDS) {
    const text = draft[f].trim();
    const changed = draft[f] !== original[f];
    if ((plan || template) && !changed && f !== 'name') continue;
    if (!plan && !template && text === '') continue;
    if (text === '') body[f] = f === 'description' || INTEGER.has(f) ? null : undefined;
    else if (MONEY.has(f)) {
      const minor = parseMoney(text, draft.currency);
      if (minor === undefined) local[f] = `Enter an amount in ${draft.currency}, like 49.90`;
      else body[f] = minor;
    } else if (INTEGER.has(f)) {
      if (/^\d+$/.test(text)) body[f] = Number(text);
      else local[f] = 'Enter a whole number';
    } else body[f] = f === 'currency' ? text.toUpperCase() : text;
  }
  if (plan && body.name === plan.name) delete body.name;
  for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key];
  const errors = { ...fieldErrors(save.failure), ...local };
  const input = (f: keyof Draft, label: string, extra: Record<string, unknown> = {}, hint?: string) => (
    <Field label={label} error={errors[f]} hint={hint}>
      {(props) => (
        <input
          {...props}
          {...extra}
          name={f}
          value={draft[f]}
          onInput={(e) => setDraft({ ...draft, [f]: e.currentTarget.value })}
        />
      )}
    </Field>
  );
  return (
    <form
      class="form"
      onSubmit={save.submit(() => onSubmit(body), { blocked: Object.keys(local).length > 0 })}
      noValidate
    >
      <div class="grid">
        {input('name', 'Name', { required: true, autoComplete: 'off' })}
        {input('price_amount', `Price (${draft.currency})`, { inputMode: 'decimal' })}
        {input('currency', 'Currency', { maxLength: 3, autoComplete: 'off' }, 'ISO 4217 code')}
        <Field label="Billing period" error={errors.billing_period}>
          {(props) => (
            <select
              {...props}
              value={draft.billing_period}
              onChange={(e) => setDraft({ ...draft, billing_period: e.currentTarget.value })}
            >
              {billingPeriodValues.map((p) => (
                <option key={p} value={p}>
                  {p.replace('_', ' ')}
                </option>
              ))}
            </select>
          )}
        </Field>
        {input('joining_fee_amount', `Joining fee (${draft.currency})`, { inputMode: 'decimal' })}
        {input('duration_days', 'Duration (days)', { inputMode: 'numeric' }, 'Empty: open-ended')}
        {input('max_members', 'Capacity (members)', { inputMode: 'numeric' }, 'Empty: no cap')}
        {input('sport_id', 'Sport id', { inputMode: 'numeric' }, 'Empty: all sports')}
      </div>
      <Field label="Description" error={errors.description}>
        {(props) => (
          <textarea
            {...props}
            rows={3}
            value={draft.description}
            onInput={(e) => setDraft({ ...draft, description: e.currentTarget.value })}
          />
        )}
      </Field>
      <FormEnd write={save} submitLabel={submitLabel} onCancel={onCancel} onReload={onReload} />
    </form>
  );
}
