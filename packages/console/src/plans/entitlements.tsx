import type { Entitlement, EntitlementsReplace } from '@facility-admin/client';
import { useState } from 'preact/hooks';
import { ProblemError } from '../api';
import { useFacility } from '../context';
import { NotLoaded, useResource } from '../resource';
import { Empty } from '../ui';
import { WriteOutcome } from '../write';

type Kind = 'string' | 'number' | 'boolean';
interface Row {
  id: number;
  key: string;
  kind: Kind;
  text: string;
}

let nextRowId = 1;
function rowOf(entitlement: Entitlement): Row {
  const value = entitlement.value;
  const kind: Kind = typeof value === 'number' ? 'number' : typeof value === 'boolean' ? 'boolean' : 'string';
  return { id: nextRowId++, key: entitlement.key, kind, text: String(value) };
}

/** A row's value with its type: "2" as a number is 2, as a string is "2"; undefined when it is not one. */
function typedValue(row: Row): string | number | boolean | undefined {
  if (row.kind === 'boolean') return row.text === 'true';
  if (row.kind === 'number') {
    const n = Number(row.text.trim());
    return row.text.trim() !== '' && Number.isFinite(n) ? n : undefined;
  }
  return row.text;
}

/** The rows' errors from a validation problem (/entitlements/2/value → row 2). */
function rowErrors(error: unknown): Record<number, string> {
  const out: Record<number, string> = {};
  if (!(error instanceof ProblemError)) return out;
  for (const e of error.errors) {
    const match = /^\/entitlements\/(\d+)/.exec(e.field);
    if (match)
      out[Number(match[1])] = `${out[Number(match[1])] ? `${out[Number(match[1])]}; ` : ''}${e.message}`;
  }
  return out;
}

/** The plan's entitlements as rows of key, type and value, saved together (one PUT with If-Match). */
export function EntitlementsEditor({ planId, readOnly }: { planId: number; readOnly: boolean }) {
  const { client, facilityId } = useFacility();
  const [rows, setRows] = useState<Row[] | null>(null);
  const loaded = useResource(() => client.entitlements.get(facilityId, planId), [facilityId, planId], {
    onReload: () => setRows(null),
  });
  if (loaded.data === undefined) return <NotLoaded load={loaded} what="entitlements" />;
  const { data, etag } = loaded.data;
  const current = rows ?? data.entitlements.map(rowOf);
  const errors = rowErrors(loaded.failure);
  const local: Record<number, string> = {};
  current.forEach((row, i) => {
    if (typedValue(row) === undefined) local[i] = 'Enter a number';
    else if (row.key.trim() === '') local[i] = 'Enter a key';
  });
  const change = (id: number, patch: Partial<Row>) =>
    setRows(current.map((row) => (row.id === id ? { ...row, ...patch } : row)));
  const body = {
    entitlements: current.map((row) => ({ key: row.key.trim(), value: typedValue(row) })),
  } as EntitlementsReplace;
  const save = loaded.submit(() => client.entitlements.replace(facilityId, planId, body, { ifMatch: etag }), {
    notice: 'Entitlements saved.',
    blocked: Object.keys(local).length > 0,
  });
  if (readOnly && current.length === 0) return <Empty>No entitlements.</Empty>;
  return (
    <form class="form entitlements" onSubmit={save} noValidate aria-labelledby="entitlements-title">
      {current.length === 0 && <Empty>No entitlements yet.</Empty>}
      {current.map((row, i) => (
        <fieldset key={row.id} class="entitlement-row" disabled={readOnly}>
          <legend class="visually-hidden">Entitlement {i + 1}</legend>
          <label for={`entitlement-${row.id}-key`}>
            <span>Key</span>
            <input
              id={`entitlement-${row.id}-key`}
              value={row.key}
              onInput={(e) => change(row.id, { key: e.currentTarget.value })}
              aria-invalid={errors[i] || local[i] ? true : undefined}
            />
          </label>
          <label for={`entitlement-${row.id}-type`}>
            <span>Type</span>
            <select
              id={`entitlement-${row.id}-type`}
              value={row.kind}
              onChange={(e) => {
                const kind = e.currentTarget.value as Kind;
                change(row.id, {
                  kind,
                  text: kind === 'boolean' ? (row.text === 'false' ? 'false' : 'true') : row.text,
                });
              }}
            >
              <option value="string">text</option>
              <option value="number">number</option>
              <option value="boolean">yes / no</option>
            </select>
          </label>
          <label for={`entitlement-${row.id}-value`}>
            <span>Value</span>
            {row.kind === 'boolean' ? (
              <select
                id={`entitlement-${row.id}-value`}
                value={row.text}
                onChange={(e) => change(row.id, { text: e.currentTarget.value })}
              >
                <option value="true">yes</option>
                <option value="false">no</option>
              </select>
            ) : (
              <input
                id={`entitlement-${row.id}-value`}
                value={row.text}
                inputMode={row.kind === 'number' ? 'decimal' : undefined}
                onInput={(e) => change(row.id, { text: e.currentTarget.value })}
              />
            )}
          </label>
          {!readOnly && (
            <button
              type="button"
              class="link"
              aria-label={`Remove entitlement ${row.key || i + 1}`}
              onClick={() => setRows(current.filter((r) => r.id !== row.id))}
            >
              Remove
            </button>
          )}
          {(errors[i] || local[i]) && <p class="field-error">{local[i] ?? errors[i]}</p>}
        </fieldset>
      ))}
      <WriteOutcome write={loaded} onReload={loaded.reload} notice={rows === null} />
      {!readOnly && (
        <div class="actions">
          <button
            type="button"
            onClick={() => setRows([...current, { id: nextRowId++, key: '', kind: 'string', text: '' }])}
          >
            Add entitlement
          </button>
          <button type="submit" class="primary" disabled={rows === null}>
            Save entitlements
          </button>
        </div>
      )}
    </form>
  );
}
