import { memberRoleValues, memberStatusValues, type Plan } from '@facility-admin/client';
import { Field } from '../ui';

/** The members list's filters, as the form holds them: empty means "any". */
export interface MemberFilterDraft {
  q: string;
  status: string;
  role: string;
  planId: string;
  sportId: string;
}

export const NO_MEMBER_FILTER: MemberFilterDraft = { q: '', status: '', role: '', planId: '', sportId: '' };

interface Props {
  draft: MemberFilterDraft;
  onChange: (change: Partial<MemberFilterDraft>) => void;
  plans: Plan[];
  /** Said beside the sport field, when its text is not an id. */
  sportError?: string;
}

/** Search, status, role, plan and sport: the fields of the members list and of the export. */
export function MemberFilterFields({ draft, onChange, plans, sportError }: Props) {
  return (
    <>
      <Field label="Search" hint="Words of the name, email, phone or external id, any part, accents or not">
        {(props) => (
          <input
            {...props}
            type="search"
            value={draft.q}
            onInput={(e) => onChange({ q: e.currentTarget.value })}
          />
        )}
      </Field>
      <Field label="Status">
        {(props) => (
          <select
            {...props}
            value={draft.status}
            onChange={(e) => onChange({ status: e.currentTarget.value })}
          >
            <option value="">Not removed</option>
            {memberStatusValues.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Role">
        {(props) => (
          <select {...props} value={draft.role} onChange={(e) => onChange({ role: e.currentTarget.value })}>
            <option value="">Any</option>
            {memberRoleValues.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Plan">
        {(props) => (
          <select
            {...props}
            value={draft.planId}
            onChange={(e) => onChange({ planId: e.currentTarget.value })}
          >
            <option value="">Any</option>
            {plans.map((plan) => (
              <option key={plan.id} value={String(plan.id)}>
                {plan.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Sport id" error={sportError}>
        {(props) => (
          <input
            {...props}
            inputMode="numeric"
            value={draft.sportId}
            onInput={(e) => onChange({ sportId: e.currentTarget.value })}
          />
        )}
      </Field>
    </>
  );
}
