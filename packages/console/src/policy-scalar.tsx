import type { Policy } from '@facility-admin/client';
import { moneyInput, parseMoney } from './format';
import { POLICY_FIELDS as FIELDS, type PolicyField } from './policy-fields';
import { Field } from './ui';

/** The form's text of each field that is one value (not the hours or closures). */
export type ScalarDraft = Record<string, string | boolean>;

const isScalar = (f: PolicyField) => f.kind !== 'hours' && f.kind !== 'closures';

export function scalarDraftOf(policy: Policy): ScalarDraft {
  const draft: ScalarDraft = {};
  for (const f of FIELDS.filter(isScalar)) {
    const value = policy[f.name as keyof Policy];
    draft[f.name] =
      f.kind === 'boolean'
        ? Boolean(value)
        : f.kind === 'money'
          ? moneyInput(value as number, policy.currency)
          : value === null
            ? ''
            : String(value);
  }
  return draft;
}

/** The changed fields as the service takes them, and the ones the form refuses itself. */
export function scalarBody(
  current: ScalarDraft,
  original: ScalarDraft,
): { body: Record<string, unknown>; problems: Record<string, string> } {
  const body: Record<string, unknown> = {};
  const problems: Record<string, string> = {};
  for (const f of FIELDS.filter(isScalar)) {
    const value = current[f.name];
    if (value === original[f.name]) continue;
    const text = String(value).trim();
    if (f.kind === 'boolean') body[f.name] = value;
    else if (f.kind === 'optional-integer' && text === '') body[f.name] = null;
    else if (f.kind === 'integer' || f.kind === 'optional-integer') {
      if (/^\d+$/.test(text)) body[f.name] = Number(text);
      else
        problems[f.name] = f.kind === 'integer' ? 'Enter a whole number' : 'Enter a whole number, or nothing';
    } else if (f.kind === 'money') {
      const minor = parseMoney(text, String(current.currency));
      if (minor === undefined) problems[f.name] = `Enter an amount in ${current.currency}, like 12.50`;
      else body[f.name] = minor;
    } else body[f.name] = text;
  }
  return { body, problems };
}

/** One field of the form: a yes/no or a choice as a select, the others as a text input. */
export function PolicyScalarField({
  field: f,
  draft,
  error,
  onChange,
}: {
  field: PolicyField;
  draft: ScalarDraft;
  error: string | undefined;
  onChange: (draft: ScalarDraft) => void;
}) {
  const set = (value: string | boolean) => onChange({ ...draft, [f.name]: value });
  return (
    <Field
      label={f.kind === 'money' ? `${f.label} (${draft.currency})` : f.label}
      error={error}
      hint={`${f.description} ${f.enforced ? 'Enforced by this service.' : 'Stored for other systems; not enforced here.'}`}
    >
      {(props) =>
        f.kind === 'boolean' ? (
          <select
            {...props}
            value={draft[f.name] ? 'yes' : 'no'}
            onChange={(e) => set(e.currentTarget.value === 'yes')}
          >
            <option value="yes">Yes</option>
            <option value="no">No</option>
          </select>
        ) : f.kind === 'choice' ? (
          <select {...props} value={String(draft[f.name])} onChange={(e) => set(e.currentTarget.value)}>
            {f.options?.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        ) : (
          <input
            {...props}
            name={f.name}
            inputMode={f.kind === 'text' ? undefined : f.kind === 'money' ? 'decimal' : 'numeric'}
            placeholder={f.kind === 'optional-integer' ? 'No limit' : undefined}
            value={String(draft[f.name])}
            onInput={(e) => set(e.currentTarget.value)}
          />
        )
      }
    </Field>
  );
}
