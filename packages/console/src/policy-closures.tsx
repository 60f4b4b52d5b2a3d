import type { Policy } from '@facility-admin/client';

interface ClosureRow {
  starts_on: string;
  ends_on: string;
  reason: string;
}

export function closuresDraftOf(closures: Policy['closures']): ClosureRow[] {
  return closures.map(({ starts_on, ends_on, reason }) => ({ starts_on, ends_on, reason: reason ?? '' }));
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** What the form sends, or the problems it finds itself (by `/closures/<index>`). */
export function closuresBody(rows: ClosureRow[]): {
  body: Policy['closures'];
  problems: Record<string, string>;
} {
  const problems: Record<string, string> = {};
  rows.forEach((row, index) => {
    if (!DATE.test(row.starts_on) || !DATE.test(row.ends_on))
      problems[`/closures/${index}`] = 'Enter both dates';
    else if (row.ends_on < row.starts_on) problems[`/closures/${index}`] = 'The last day is before the first';
  });
  const body = rows.map((row) => ({
    starts_on: row.starts_on,
    ends_on: row.ends_on,
    reason: row.reason.trim() === '' ? null : row.reason.trim(),
  }));
  return { body, problems };
}

/** Closures: each a range of whole days and a reason, added and removed. */
export function ClosuresEditor({
  rows,
  onChange,
  problems,
  hint,
  today,
}: {
  rows: ClosureRow[];
  onChange: (rows: ClosureRow[]) => void;
  /** By `/closures/<index>`, the form's own and the service's. */
  problems: Record<string, string>;
  hint: string;
  /** The facility's today, the first day a new closure is given. */
  today: string;
}) {
  const change = (index: number, patch: Partial<ClosureRow>) =>
    onChange(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));
  return (
    <fieldset class="door-editor">
      <legend>Closures</legend>
      <p class="hint">{hint}</p>
      {problems['/closures'] && <p class="field-error">{problems['/closures']}</p>}
      {rows.length === 0 && <p class="muted">No closures.</p>}
      {rows.map((row, index) => {
        const problem = problems[`/closures/${index}`];
        const invalid = problem ? true : undefined;
        return (
          <div key={index} class="closure-row">
            <label>
              <span>First day</span>
              <input
                type="date"
                value={row.starts_on}
                aria-invalid={invalid}
                onInput={(e) => change(index, { starts_on: e.currentTarget.value })}
              />
            </label>
            <label>
              <span>Last day</span>
              <input
                type="date"
                value={row.ends_on}
                aria-invalid={invalid}
                onInput={(e) => change(index, { ends_on: e.currentTarget.value })}
              />
            </label>
            <label>
              <span>Reason</span>
              <input
                value={row.reason}
                maxLength={200}
                onInput={(e) => change(index, { reason: e.currentTarget.value })}
              />
            </label>
            <button
              type="button"
              class="link"
              aria-label={`Remove closure ${index + 1}`}
              onClick={() => onChange(rows.filter((_, i) => i !== index))}
            >
              Remove
            </button>
            {problem && <p class="field-error">{problem}</p>}
          </div>
        );
      })}
      {rows.length < 100 && (
        <div>
          <button
            type="button"
            onClick={() => onChange([...rows, { starts_on: today, ends_on: today, reason: '' }])}
          >
            Add closure
          </button>
        </div>
      )}
    </fieldset>
  );
}
