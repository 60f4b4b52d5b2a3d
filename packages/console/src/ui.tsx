import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef } from 'preact/hooks';
import { ProblemError } from './api';
import { useFacility } from './context';
import { href } from './router';

export function Loading({ what }: { what: string }) {
  return (
    <p class="state" role="status" aria-live="polite">
      Loading {what}…
    </p>
  );
}

export function Empty({ children }: { children: ComponentChildren }) {
  return <p class="state empty">{children}</p>;
}

/** A failure as the service said it: its detail, the request id to quote, and for 412 a way to reload. */
export function ProblemNotice({ error, onReload }: { error: unknown; onReload?: () => void }) {
  const problem = error instanceof ProblemError ? error : undefined;
  if (problem?.code === 'precondition_failed') {
    return (
      <div class="notice error" role="alert">
        <p>
          <strong>Someone else changed this</strong> since you opened it. Your changes were not saved.
        </p>
        {onReload && (
          <button type="button" onClick={onReload}>
            Reload the latest version
          </button>
        )}
      </div>
    );
  }
  const detail = problem ? problem.detail : error instanceof Error ? error.message : String(error);
  return (
    <div class="notice error" role="alert">
      <p>
        {problem?.status === 403 ? 'Not allowed: ' : ''}
        {detail}
      </p>
      {problem?.requestId && <p class="muted small">Request id {problem.requestId}</p>}
    </div>
  );
}

/** Instead of a screen that only writes (a create form), for a role that may not make it. */
export function ReadOnlyKey() {
  return <ProblemNotice error={new Error('Your role here does not allow this.')} />;
}

/** The field errors of a validation problem, by field name ("/email" and "email" alike). */
export function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ProblemError)) return {};
  const out: Record<string, string> = {};
  for (const e of error.errors) {
    const name = e.field.replace(/^\//, '').split('/')[0] ?? e.field;
    out[name] = out[name] ? `${out[name]}; ${e.message}` : e.message;
  }
  // Conflicts name their field by code.
  if (error.code === 'member_email_conflict') out.email ??= error.detail;
  if (error.code === 'plan_name_conflict') out.name ??= error.detail;
  if (error.code === 'member_too_young') out.date_of_birth ??= error.detail;
  if (error.code === 'invalid_plan' || error.code === 'plan_full') out.plan_id ??= error.detail;
  if (error.code === 'invalid_webhook_url') out.url ??= error.detail;
  if (error.code === 'credential_conflict') out.value ??= error.detail;
  return out;
}

interface FieldProps {
  label: string;
  error?: string;
  hint?: string;
  children: (props: {
    id: string;
    'aria-describedby'?: string;
    'aria-invalid'?: boolean;
  }) => ComponentChildren;
}

/** A labelled control with its hint and its error beside it, tied together for screen readers. */
export function Field({ label, error, hint, children }: FieldProps) {
  const id = useId();
  const described = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;
  return (
    <div class={`field${error ? ' invalid' : ''}`}>
      <label for={id}>{label}</label>
      {children({ id, 'aria-describedby': described, 'aria-invalid': error ? true : undefined })}
      {hint && (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p class="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

/** The screen's heading takes focus when the screen opens, so keyboard and screen-reader users start there. */
export function ScreenTitle({ children }: { children: ComponentChildren }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <h1 tabIndex={-1} ref={ref}>
      {children}
    </h1>
  );
}

/** The way back from a page to its list (Plans /). */
export function Crumbs({ list, label }: { list: string; label: string }) {
  const { facilityId } = useFacility();
  return (
    <p class="crumbs">
      <a href={href(facilityId, list)}>{label}</a> /
    </p>
  );
}

/** One resource's page head: the way back to its list, its name, and its state beside it. */
export function ResourceHead({
  list,
  label,
  title,
  children,
}: {
  list: string;
  label: string;
  title: ComponentChildren;
  children: ComponentChildren;
}) {
  return (
    <>
      <Crumbs list={list} label={label} />
      <div class="screen-head">
        <ScreenTitle>{title}</ScreenTitle>
        {children}
      </div>
    </>
  );
}

/** A small status pill; the word carries the meaning, the colour only repeats it. */
export function Badge({ value }: { value: string }) {
  return <span class={`badge badge-${value}`}>{value}</span>;
}
