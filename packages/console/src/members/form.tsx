import {
  type Member,
  type MemberCreate,
  type MemberUpdate,
  memberCreateStatusValues,
  memberRoleValues,
  type Plan,
} from '@facility-admin/client';
import { useState } from 'preact/hooks';
import { useFacility } from '../context';
import { formatTimestamp } from '../format';
import { Field, fieldErrors } from '../ui';
import { FormEnd, useWrite } from '../write';

type MemberField = (typeof FIELDS)[number];
/** The editable fields as the form holds them: text, '' for empty. */
export type MemberDraft = Record<MemberField, string>;

const FIELDS = [
  'first_name',
  'last_name',
  'email',
  'phone',
  'date_of_birth',
  'sport_id',
  'role',
  'status',
  'plan_id',
  'joined_on',
  'ends_on',
  'waiver_signed_at',
  'notes',
] as const satisfies readonly (keyof MemberCreate & keyof MemberUpdate & keyof Member)[];
const NUMERIC = new Set<MemberField>(['sport_id', 'plan_id']);
/** The waiver's choice "Signed now": the time is taken when the form is sent. */
const SIGNED_NOW = 'now';

export function draftOf(member?: Member): MemberDraft {
  const draft = {} as MemberDraft;
  for (const field of FIELDS) {
    const value = member?.[field];
    draft[field] = value === null || value === undefined ? '' : String(value);
  }
  if (!member) {
    draft.role = 'member';
    draft.status = 'active';
  }
  return draft;
}

/** The body to send: on create every filled field, on edit only what changed ('' clears a field). */
export function bodyOf(draft: MemberDraft, before?: Member): Record<string, unknown> {
  const original = draftOf(before);
  const body: Record<string, unknown> = {};
  for (const field of FIELDS) {
    if (before && (draft[field] === original[field] || field === 'status')) continue;
    const text = draft[field].trim();
    if (!before && text === '') continue;
    if (text === '') body[field] = null;
    else if (field === 'waiver_signed_at' && text === SIGNED_NOW) body[field] = new Date().toISOString();
    else body[field] = NUMERIC.has(field) && /^\d+$/.test(text) ? Number(text) : text;
  }
  return body;
}

interface Props {
  member?: Member;
  plans: Plan[];
  submitLabel: string;
  onSubmit: (draft: MemberDraft) => Promise<void>;
  onCancel?: () => void;
  /** After a 412: reload what the form edits. */
  onReload?: () => void;
}

/** Create and edit: every field labelled, its error beside it. */
export function MemberForm({ member, plans, submitLabel, onSubmit, onCancel, onReload }: Props) {
  const { timeZone } = useFacility();
  const [draft, setDraft] = useState(() => draftOf(member));
  const save = useWrite();
  const errors = fieldErrors(save.failure);
  const set = (field: keyof MemberDraft) => (e: { currentTarget: { value: string } }) =>
    setDraft({ ...draft, [field]: e.currentTarget.value });
  const text = (
    field: keyof MemberDraft,
    label: string,
    type: 'text' | 'email' | 'tel' | 'date' = 'text',
    extra: Record<string, unknown> = {},
    hint?: string,
  ) => (
    <Field label={label} error={errors[field]} hint={hint}>
      {(props) => (
        // One input of several types: the cast keeps preact's per-type attribute unions out of the way.
        <input
          {...props}
          {...extra}
          name={field}
          type={type as 'text'}
          value={draft[field]}
          onInput={set(field)}
        />
      )}
    </Field>
  );
  // Only active plans take new members; the member's own plan stays listed.
  const offered = plans.filter((p) => (p.is_active && !p.deleted_at) || p.id === member?.plan_id);

  return (
    <form class="form" onSubmit={save.submit(() => onSubmit(draft))} noValidate>
      <div class="grid">
        {text('first_name', 'First name', 'text', { required: true, autoComplete: 'off' })}
        {text('last_name', 'Last name', 'text', { autoComplete: 'off' })}
        {text('email', 'Email', 'email', { autoComplete: 'off' })}
        {text('phone', 'Phone', 'tel')}
        {text('date_of_birth', 'Date of birth', 'date')}
        {text('joined_on', 'Joined on', 'date')}
        {text('ends_on', 'Membership ends', 'date', {}, 'The last day; empty for none')}
        <Field label="Waiver" error={errors.waiver_signed_at}>
          {(props) => (
            <select
              {...props}
              name="waiver_signed_at"
              value={draft.waiver_signed_at}
              onChange={set('waiver_signed_at')}
            >
              <option value="">Not signed</option>
              {member?.waiver_signed_at && (
                <option value={member.waiver_signed_at}>
                  Signed {formatTimestamp(member.waiver_signed_at, timeZone)}
                </option>
              )}
              <option value={SIGNED_NOW}>Signed now</option>
            </select>
          )}
        </Field>
        <Field label="Plan" error={errors.plan_id}>
          {(props) => (
            <select {...props} name="plan_id" value={draft.plan_id} onChange={set('plan_id')}>
              <option value="">No plan</option>
              {offered.map((plan) => (
                <option key={plan.id} value={String(plan.id)}>
                  {plan.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Role" error={errors.role}>
          {(props) => (
            <select {...props} name="role" value={draft.role} onChange={set('role')}>
              {memberRoleValues.map((role) => (
                <option key={role}>{role}</option>
              ))}
            </select>
          )}
        </Field>
        {!member && (
          <Field label="Status" error={errors.status}>
            {(props) => (
              <select {...props} name="status" value={draft.status} onChange={set('status')}>
                {memberCreateStatusValues.map((status) => (
                  <option key={status}>{status}</option>
                ))}
              </select>
            )}
          </Field>
        )}
        {text('sport_id', 'Sport id', 'text', { inputMode: 'numeric' })}
      </div>
      <Field label="Notes" error={errors.notes}>
        {(props) => <textarea {...props} name="notes" rows={3} value={draft.notes} onInput={set('notes')} />}
      </Field>
      <FormEnd write={save} submitLabel={submitLabel} onCancel={onCancel} onReload={onReload} />
    </form>
  );
}
